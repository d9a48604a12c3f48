package io.timeservice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import io.timeservice.TimeServiceApplication;
import io.timeservice.model.ClockSettings;
import io.timeservice.store.postgres.PostgresStore;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class TimeServicePropertiesTest {

    private static final String TOKEN_A = "aaaaaaaaaaaaaaaa-1";
    private static final String TOKEN_B = "bbbbbbbbbbbbbbbb-2";

    @Test
    void tokens_bindFromCommaSeparatedEnvironmentVariables() {
        TimeServiceProperties properties = bindEnvironment(Map.of(
                "TIMESERVICE_SECURITY_READ_TOKENS", TOKEN_A + "," + TOKEN_B,
                "TIMESERVICE_SECURITY_WRITE_TOKENS", TOKEN_B));
        assertThat(properties.security().readTokens()).containsExactly(TOKEN_A, TOKEN_B);
        assertThat(properties.security().writeTokens()).containsExactly(TOKEN_B);
        assertThat(properties.security().enabled()).isTrue();
        assertThat(properties.security().openActuator()).isFalse();
    }

    @Test
    void noTokens_byDefault_orFromEmptyVariables() {
        assertThat(bindEnvironment(Map.of()).security().enabled()).isFalse();
        TimeServiceProperties empty = bindEnvironment(Map.of("TIMESERVICE_SECURITY_READ_TOKENS", "",
                "TIMESERVICE_SECURITY_WRITE_TOKENS", ""));
        assertThat(empty.security().readTokens()).isEmpty();
        assertThat(empty.security().enabled()).isFalse();
    }

    @Test
    void protectedMode_isTheDefault_openTurnsItOff_andTokensReplaceIt() {
        assertThat(bindEnvironment(Map.of()).security().protectedMode()).isTrue();
        assertThat(bindEnvironment(Map.of("TIMESERVICE_SECURITY_OPEN", "true")).security().protectedMode())
                .isFalse();
        assertThat(bindEnvironment(Map.of("TIMESERVICE_SECURITY_READ_TOKENS", TOKEN_A)).security().protectedMode())
                .isFalse();
    }

    @Test
    void openTogetherWithTokens_stopsStartUp_withoutShowingTheToken() {
        assertRefused(Map.of("timeservice.security.open", "true", "timeservice.security.write-tokens", TOKEN_A),
                "timeservice.security.open=true serves every client without a token, yet 1 token(s) are configured",
                TOKEN_A);
    }

    @Test
    void toString_countsTokensButNeverShowsThem() {
        TimeServiceProperties properties = bindEnvironment(Map.of(
                "TIMESERVICE_SECURITY_READ_TOKENS", TOKEN_A, "TIMESERVICE_SECURITY_WRITE_TOKENS", TOKEN_B));
        assertThat(properties.toString()).contains("readTokens=1 configured", "writeTokens=1 configured")
                .doesNotContain(TOKEN_A, TOKEN_B);
    }

    @Test
    void shortOrUnsendableTokens_stopStartUp_withTheProperty_andPosition_butNotTheToken() {
        assertRefused(Map.of("timeservice.security.read-tokens", TOKEN_A + ",short-secret"),
                "timeservice.security.read-tokens[1] must be 16 to 512 characters long, got 12", "short-secret");
        assertRefused(Map.of("timeservice.security.write-tokens", "has spaces in it, really"),
                "timeservice.security.write-tokens[0] may contain only", "has spaces");
        assertRefused(Map.of("timeservice.security.write-tokens", "quote\"inside-the-token"),
                "timeservice.security.write-tokens[0] may contain only", "inside-the-token");
        assertRefused(Map.of("timeservice.security.read-tokens", TOKEN_A + ","),
                "timeservice.security.read-tokens", TOKEN_A);
        assertRefused(Map.of("timeservice.security.read-tokens", "x".repeat(513)),
                "must be 16 to 512 characters long, got 513", "xxxxxxxxxxxxxxxxxxxx");
    }

    @Test
    void journalSizes_haveTheirDefaults_andBadValuesStopStartUp() {
        TimeServiceProperties defaults = bindEnvironment(Map.of());
        assertThat(defaults.journal().segmentSize().toMegabytes()).isEqualTo(32);
        assertThat(defaults.journal().maxUnflushedBytes().toMegabytes()).isEqualTo(64);
        assertRefused(Map.of("timeservice.journal.segment-size", "512KB"),
                "timeservice.journal.segment-size must be between 1MB and 1GB, got 524288B");
        assertRefused(Map.of("timeservice.journal.segment-size", "2GB"),
                "timeservice.journal.segment-size must be between 1MB and 1GB");
        assertRefused(Map.of("timeservice.journal.max-unflushed-bytes", "0"),
                "timeservice.journal.max-unflushed-bytes must be between 1MB and 1GB, got 0B");
    }

    @Test
    void bodyLimit_endsWhereTheJournalsRecordLimitEnds() {
        StandardEnvironment largest = new StandardEnvironment();
        largest.getPropertySources().addFirst(new MapPropertySource("test", Map.of(
                "timeservice.limits.max-body-bytes", "16777216", "timeservice.limits.max-payload-bytes", "16777215")));
        assertThat(bind(largest).limits().maxPayloadBytes()).isEqualTo(16 * 1024 * 1024 - 1);
        assertRefused(Map.of("timeservice.limits.max-body-bytes", "16777217"),
                "timeservice.limits.max-body-bytes must be between 1024 and 16777216, got 16777217");
    }

    @Test
    void snapshotLimit_unset_followsTheCapacity_from64MBTo256MB() {
        // the defaults: a million timers with their largest payloads are far beyond one journal record
        assertThat(bind(new StandardEnvironment()).limits().maxSnapshotBytes().toBytes()).isEqualTo(256L << 20);
        // a small service: every clock it can hold is far below the least default
        StandardEnvironment small = new StandardEnvironment();
        small.getPropertySources().addFirst(new MapPropertySource("test", Map.of("timeservice.capacity", "1000",
                "timeservice.schedules.max", "10", "timeservice.deliveries.max", "100")));
        assertThat(bind(small).limits().maxSnapshotBytes().toBytes()).isEqualTo(64L << 20);
        // in between: the largest document of a clock holding all it may hold
        StandardEnvironment between = new StandardEnvironment();
        between.getPropertySources().addFirst(new MapPropertySource("test", Map.of("timeservice.capacity", "6000",
                "timeservice.schedules.max", "10", "timeservice.deliveries.max", "100")));
        long largest = io.timeservice.model.SnapshotSizes.largestDocument(6000, 10, 100, 16384, 65536);
        assertThat(largest).isBetween(64L << 20, 256L << 20);
        assertThat(bind(between).limits().maxSnapshotBytes().toBytes()).isEqualTo(largest);
        // set, it is kept
        StandardEnvironment set = new StandardEnvironment();
        set.getPropertySources().addFirst(new MapPropertySource("test", Map.of("timeservice.capacity", "6000",
                "timeservice.limits.max-snapshot-bytes", "1MB")));
        assertThat(bind(set).limits().maxSnapshotBytes().toBytes()).isEqualTo(1L << 20);
    }

    @Test
    void snapshotLimit_endsWhereALoadedClocksJournalRecordEnds() {
        StandardEnvironment largest = new StandardEnvironment();
        largest.getPropertySources().addFirst(new MapPropertySource("test", Map.of(
                "timeservice.limits.max-snapshot-bytes", "256MB")));
        assertThat(bind(largest).limits().maxSnapshotBytes().toBytes()).isEqualTo(256L << 20);
        assertRefused(Map.of("timeservice.limits.max-snapshot-bytes", "257MB"),
                "timeservice.limits.max-snapshot-bytes must be between 1KB and 256MB");
        assertRefused(Map.of("timeservice.limits.max-snapshot-bytes", "1000B"),
                "timeservice.limits.max-snapshot-bytes must be between 1KB and 256MB");
    }

    @Test
    void invariantCheckSettings_haveTheirDefaults_andBadValuesAreRefused_namingTheProperty() {
        assertThat(bindEnvironment(Map.of()).invariants())
                .isEqualTo(new TimeServiceProperties.Invariants(Duration.ofSeconds(5), 100_000));
        assertThat(bindEnvironment(Map.of("TIMESERVICE_INVARIANTS_MIN_CHECK_INTERVAL", "0s",
                "TIMESERVICE_INVARIANTS_RATE_LIMITED_ABOVE", "0")).invariants())
                .isEqualTo(new TimeServiceProperties.Invariants(Duration.ZERO, 0));
        assertRefused(Map.of("timeservice.invariants.min-check-interval", "-1s"),
                "timeservice.invariants.min-check-interval must be >= 0, got PT-1S");
        assertRefused(Map.of("timeservice.invariants.rate-limited-above", "-1"),
                "timeservice.invariants.rate-limited-above must be >= 0, got -1");
        assertRefused(Map.of("timeservice.invariants.rate-limited-above", "lots"),
                "timeservice.invariants.rate-limited-above");
    }

    @Test
    void clockIdleTtl_isOffByDefault_bindsADuration_andBadValuesAreRefused_namingTheProperty() {
        assertThat(bindEnvironment(Map.of()).clocks().idleTtl()).isNull();
        assertThat(bindEnvironment(Map.of("TIMESERVICE_CLOCKS_IDLE_TTL", "2h")).clocks().idleTtl())
                .isEqualTo(Duration.ofHours(2));
        assertThat(bindEnvironment(Map.of("TIMESERVICE_CLOCKS_IDLE_TTL", "1m")).clocks().idleTtl())
                .isEqualTo(Duration.ofMinutes(1));
        assertRefused(Map.of("timeservice.clocks.idle-ttl", "0s"),
                "timeservice.clocks.idle-ttl must be between 1m and 3650d (or unset: never), got PT0S");
        // shorter than twice the longest claim wait (30 s): a waiting worker's clock could go
        assertRefused(Map.of("timeservice.clocks.idle-ttl", "59s"),
                "timeservice.clocks.idle-ttl must be between 1m and 3650d (or unset: never), got PT59S");
        assertRefused(Map.of("timeservice.clocks.idle-ttl", "-5m"),
                "timeservice.clocks.idle-ttl must be between 1m and 3650d (or unset: never), got PT-5M");
        assertRefused(Map.of("timeservice.clocks.idle-ttl", "3651d"), "timeservice.clocks.idle-ttl must be");
        assertRefused(Map.of("timeservice.clocks.idle-ttl", "soon"), "timeservice.clocks.idle-ttl");
    }

    @Test
    void defaultClockMode_isVirtualOrSystem_andScaledIsRefused_forItNeedsARate() {
        assertThat(bindEnvironment(Map.of()).clock().mode()).isEqualTo(ClockSettings.Mode.VIRTUAL);
        assertThat(bindEnvironment(Map.of("TIMESERVICE_CLOCK_MODE", "system")).clock().mode())
                .isEqualTo(ClockSettings.Mode.SYSTEM);
        assertRefused(Map.of("timeservice.clock.mode", "scaled"),
                "timeservice.clock.mode must be virtual or system, got scaled");
    }

    @Test
    void store_isMemoryByDefault_bindsWhatTheAutoConfigurationFilterReads_andOtherValuesAreRefused() {
        assertThat(bindEnvironment(Map.of()).store()).isEqualTo(StoreAutoConfigurationFilter.Store.MEMORY);
        assertThat(bindEnvironment(Map.of("TIMESERVICE_STORE", "postgresql")).store())
                .isEqualTo(StoreAutoConfigurationFilter.Store.POSTGRESQL);
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test",
                Map.of(StoreAutoConfigurationFilter.PROPERTY, "PostgreSQL")));
        assertThat(bind(environment).store()).isEqualTo(StoreAutoConfigurationFilter.Store.POSTGRESQL);
        assertRefused(Map.of("timeservice.store", "mysql"), "timeservice.store");
    }

    @Test
    void postgresqlLoopSettings_haveTheirDefaults_andBadValuesAreRefused_namingTheProperty() {
        assertThat(bindEnvironment(Map.of()).postgresql()).isEqualTo(new TimeServiceProperties.Postgresql(
                Duration.ofSeconds(5), Duration.ofMinutes(5), Duration.ofSeconds(15), Duration.ofSeconds(2),
                Duration.ofMinutes(1), null));
        assertThat(bindEnvironment(Map.of()).postgresql().timeouts()).isEqualTo(PostgresStore.Timeouts.DEFAULT);
        assertThat(bindEnvironment(Map.of("TIMESERVICE_POSTGRESQL_SLOW_POLL", "10ms",
                "TIMESERVICE_POSTGRESQL_ACKED_RETENTION", "0s", "TIMESERVICE_POSTGRESQL_SAMPLE_PERIOD", "1h",
                "TIMESERVICE_POSTGRESQL_LOCK_TIMEOUT", "10ms", "TIMESERVICE_POSTGRESQL_STATEMENT_TIMEOUT", "1h"))
                .postgresql()).isEqualTo(new TimeServiceProperties.Postgresql(Duration.ofMillis(10), Duration.ZERO,
                Duration.ofHours(1), Duration.ofMillis(10), Duration.ofHours(1), null));
        assertRefused(Map.of("timeservice.postgresql.slow-poll", "9ms"),
                "timeservice.postgresql.slow-poll must be between 10ms and 1h, got PT0.009S");
        assertRefused(Map.of("timeservice.postgresql.slow-poll", "61m"),
                "timeservice.postgresql.slow-poll must be between 10ms and 1h, got PT1H1M");
        assertRefused(Map.of("timeservice.postgresql.acked-retention", "-1s"),
                "timeservice.postgresql.acked-retention must be between 0 and 30d, got PT-1S");
        assertRefused(Map.of("timeservice.postgresql.acked-retention", "31d"),
                "timeservice.postgresql.acked-retention must be between 0 and 30d, got PT744H");
        assertRefused(Map.of("timeservice.postgresql.sample-period", "99ms"),
                "timeservice.postgresql.sample-period must be between 100ms and 1h, got PT0.099S");
        for (String[] refused : new String[][] {{"lock-timeout", "9ms", "10ms and 10m, got PT0.009S"},
                {"lock-timeout", "11m", "10ms and 10m, got PT11M"},
                {"statement-timeout", "0s", "100ms and 1h, got PT0S"},
                {"statement-timeout", "61m", "100ms and 1h, got PT1H1M"}}) {
            String property = "timeservice.postgresql." + refused[0];
            assertRefused(Map.of(property, refused[1]), property + " must be between " + refused[2]);
        }
    }

    @Test
    void directUrl_isUnsetByDefault_namesThePooledUrlsDirectTwin_andMustBeAPostgresqlJdbcUrl() {
        assertThat(bindEnvironment(Map.of()).postgresql().pooled()).isFalse();
        TimeServiceProperties.Postgresql bound = bindEnvironment(Map.of("TIMESERVICE_POSTGRESQL_DIRECT_URL",
                "jdbc:postgresql://db1:5432,db2:5432/timers?targetServerType=primary")).postgresql();
        assertThat(bound.directUrl()).isEqualTo("jdbc:postgresql://db1:5432,db2:5432/timers?targetServerType=primary");
        assertThat(bound.pooled()).isTrue();
        assertRefused(Map.of("timeservice.postgresql.direct-url", "postgres://db1/timers"),
                "timeservice.postgresql.direct-url must be a PostgreSQL JDBC URL (jdbc:postgresql://...),"
                        + " got postgres://db1/timers");
    }

    @Test
    void pushSettings_haveTheirDefaults_bindHostsAndRanges_andBadValuesAreRefused_namingTheProperty() {
        TimeServiceProperties.Push push = bindEnvironment(Map.of()).push();
        assertThat(push).isEqualTo(new TimeServiceProperties.Push(java.util.List.of(), false, 4, 2, 2000,
                Duration.ofSeconds(1), Duration.ofSeconds(5)));
        assertThat(bindEnvironment(Map.of("TIMESERVICE_PUSH_ALLOWED_HOSTS", "hooks.internal,10.1.0.0/16",
                "TIMESERVICE_PUSH_ALLOW_PRIVATE_TARGETS", "true")).push())
                .satisfies(bound -> {
                    assertThat(bound.allowedHosts()).containsExactly("hooks.internal", "10.1.0.0/16");
                    assertThat(bound.allowPrivateTargets()).isTrue();
                });
        assertRefused(Map.of("timeservice.push.allowed-hosts", "10.0.0.0/40"),
                "timeservice.push.allowed-hosts: a prefix of 40 bits in 10.0.0.0/40");
        assertRefused(Map.of("timeservice.push.threads", "0"),
                "timeservice.push.threads must be between 1 and 64, got 0");
        assertRefused(Map.of("timeservice.push.sweep", "5ms"),
                "timeservice.push.sweep must be between 10ms and 1m, got PT0.005S");
        assertRefused(Map.of("timeservice.push.max-connections", "0"),
                "timeservice.push.max-connections must be between 1 and 100000, got 0");
    }

    @Test
    void aBadSetting_stopsStartUp_withAMessageNamingTheProperty() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(TimeServiceApplication.class);

        assertThatThrownBy(() -> app.run("--server.port=0", "--timeservice.durability=none",
                "--timeservice.invariants.rate-limited-above=-5").close())
                .hasStackTraceContaining("timeservice.invariants.rate-limited-above must be >= 0, got -5");
    }

    private static void assertRefused(Map<String, Object> settings, String message) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", settings));
        assertThatThrownBy(() -> bind(environment)).hasStackTraceContaining(message);
    }

    @Test
    void capacityBytes_defaultsTo256MiB_andMustHoldTheLargestTimer() {
        assertThat(bindEnvironment(Map.of()).capacityBytes().toBytes()).isEqualTo(256L * 1024 * 1024);
        assertRefused(Map.of("timeservice.capacity-bytes", "16KB"),
                "timeservice.capacity-bytes must hold at least one timer with the largest id and payload (16512"
                        + " bytes), got 16384B");
        assertRefused(Map.of("timeservice.capacity-bytes", "-1"), "timeservice.capacity-bytes must hold");
    }

    private static void assertRefused(Map<String, Object> settings, String message, String secret) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", settings));
        assertThatThrownBy(() -> bind(environment))
                .hasStackTraceContaining(message)
                .satisfies(e -> assertThat(stackTrace(e)).doesNotContain(secret));
    }

    private static TimeServiceProperties bindEnvironment(Map<String, Object> variables) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        return bind(environment);
    }

    private static TimeServiceProperties bind(StandardEnvironment environment) {
        Binder binder = new Binder(ConfigurationPropertySources.from(environment.getPropertySources()));
        return binder.bindOrCreate("timeservice", TimeServiceProperties.class);
    }

    private static String stackTrace(Throwable e) {
        java.io.StringWriter out = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(out));
        return out.toString();
    }
}
