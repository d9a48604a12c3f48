package io.timeservice.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import io.timeservice.model.ClockSettings;
import io.timeservice.store.memory.journal.FsyncPolicy;
import io.timeservice.store.memory.journal.JournalWriter;
import io.timeservice.store.postgres.PostgresStore;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Every setting of TimeService, under the {@code timeservice.} prefix. Checked when bound: a bad value stops
 * start-up with a message that names the property.
 *
 * @param heap     the heap's shape
 * @param capacity the most pending timers; an add beyond it is refused with 429
 * @param capacityBytes the most id and payload bytes all pending timers may hold together (counted as
 *                      {@link io.timeservice.store.memory.Limits#bytesOf} does); an add beyond it is refused with 429
 * @param limits   request size limits
 * @param demo     the learning scenarios of the web view
 * @param durability    {@code journal} (default): every accepted mutation is journaled in {@code dataDir} before
 *                      it is acknowledged, and the state is recovered at start-up; {@code none}: memory only
 * @param dataDir       where the journal, snapshots and the lock file live
 * @param fsync         {@code always} (default), {@code interval} or {@code never}: see {@link FsyncPolicy}
 * @param fsyncInterval with {@code fsync=interval}, the longest time between two forces
 * @param snapshot      when the journal is compacted into a snapshot
 * @param journal       segment size and the bound on bytes waiting to be written
 * @param security bearer tokens for the API
 * @param invariants    how often requests may walk a large queue to check its invariants
 * @param clocks        how many clocks, and when an idle one goes
 * @param clock         the {@code default} clock's mode
 * @param deliveries    the bound on deliveries over all clocks
 * @param firing        the firing thread of system clocks
 * @param store         where timers live: {@code memory} (the heap and journal) or {@code postgresql}; read before
 *                      binding as well, by {@link StoreAutoConfigurationFilter}, which lets the database's
 *                      auto-configurations in
 * @param postgresql    the PostgreSQL store's firing loop and gauges
 * @param schedules     the bound on recurring schedules and on one schedule's catch-up per step
 * @param push          push delivery: which targets may be reached, and the pusher's threads
 * @param dedupe        the bound on ids reserved by clocks' dedupe windows
 * @param qstash        the QStash drop-in API: its clocks' mode and signing keys (docs/DROP-IN.md)
 */
@ConfigurationProperties("timeservice")
public record TimeServiceProperties(@DefaultValue Heap heap,
                                    @DefaultValue("1000000") int capacity,
                                    @DefaultValue("256MB") DataSize capacityBytes,
                                    @DefaultValue Limits limits,
                                    @DefaultValue Demo demo,
                                    @DefaultValue("journal") Durability durability,
                                    @DefaultValue("./data") Path dataDir,
                                    @DefaultValue("always") FsyncPolicy fsync,
                                    @DefaultValue("1s") Duration fsyncInterval,
                                    @DefaultValue Snapshot snapshot,
                                    @DefaultValue Journal journal,
                                    @DefaultValue Security security,
                                    @DefaultValue Invariants invariants,
                                    @DefaultValue ClockLimits clocks,
                                    @DefaultValue DefaultClock clock,
                                    @DefaultValue Deliveries deliveries,
                                    @DefaultValue Firing firing,
                                    @DefaultValue("memory") StoreAutoConfigurationFilter.Store store,
                                    @DefaultValue Postgresql postgresql,
                                    @DefaultValue Schedules schedules,
                                    @DefaultValue Push push,
                                    @DefaultValue Dedupe dedupe,
                                    @DefaultValue Qstash qstash) {

    public TimeServiceProperties {
        require(capacity >= 1 && capacity <= 100_000_000,
                "timeservice.capacity must be between 1 and 100000000, got " + capacity);
        long largestTimer = (long) limits.maxPayloadBytes() + io.timeservice.model.Limits.MAX_ID_LENGTH;
        require(capacityBytes.toBytes() >= largestTimer, "timeservice.capacity-bytes must hold at least one timer"
                + " with the largest id and payload (" + largestTimer + " bytes), got " + capacityBytes);
        require(!fsyncInterval.isNegative() && !fsyncInterval.isZero(),
                "timeservice.fsync-interval must be positive, got " + fsyncInterval);
        if (limits.maxSnapshotBytes() == null) {
            limits = limits.withMaxSnapshotBytes(DataSize.ofBytes(defaultMaxSnapshotBytes(capacity, schedules.max(),
                    deliveries.max(), limits)));
        }
    }

    /**
     * The default of {@code timeservice.limits.max-snapshot-bytes}: the largest document of a clock that holds the
     * capacity in timers and every schedule and delivery the service may hold, each at its largest
     * ({@link io.timeservice.model.SnapshotSizes}), so that every clock the service holds saves and loads back; at
     * least 64 MB, and at most 256 MB, what one journal record takes (past it the save refuses, saying so).
     */
    static long defaultMaxSnapshotBytes(int capacity, long schedules, long deliveries, Limits limits) {
        long largest = io.timeservice.model.SnapshotSizes.largestDocument(capacity, schedules, deliveries,
                limits.maxPayloadBytes(), limits.maxBodyBytes());
        return Math.min(io.timeservice.model.Limits.MAX_SNAPSHOT_BYTES,
                Math.max(io.timeservice.model.Limits.DEFAULT_MAX_SNAPSHOT_BYTES, largest));
    }

    public enum Durability { NONE, JOURNAL }

    /**
     * {@code timeservice.clock.*}: the {@code default} clock.
     *
     * @param mode {@code virtual} (the default: time moves by advance, fired timers are answered) or {@code system}
     *             (the wall clock; fired timers become deliveries to claim). Changing it needs an empty default
     *             clock (start-up stops otherwise, saying so).
     */
    public record DefaultClock(@DefaultValue("virtual") ClockSettings.Mode mode) {

        public DefaultClock {
            // a scaled clock needs a rate, which the default clock's configuration has no place for
            require(mode != ClockSettings.Mode.SCALED, "timeservice.clock.mode must be virtual or system, got scaled"
                    + " (create a scaled clock with PUT /clocks/{clock})");
        }
    }

    /**
     * {@code timeservice.deliveries.*}.
     *
     * @param max the most deliveries (ready, in flight, waiting, dead) over all clocks; at the limit, system clocks
     *            keep due timers pending (metric {@code timer_delivery_held_back}, health) and advances of queueing
     *            virtual clocks are refused with 429
     */
    public record Deliveries(@DefaultValue("100000") long max) {

        public Deliveries {
            require(max >= 1 && max <= 100_000_000, "timeservice.deliveries.max must be between 1 and 100000000,"
                    + " got " + max);
        }
    }

    /**
     * {@code timeservice.dedupe.*}.
     *
     * @param maxReservations the most ids reserved by dedupe windows over all clocks (each counts its id's bytes in
     *                        {@code capacity-bytes} too, and about 81 bytes of memory beyond them); at it, an add on a
     *                        clock with a window is refused with 429 {@code reservation_limit}
     */
    public record Dedupe(@DefaultValue("1000000") long maxReservations) {

        public Dedupe {
            require(maxReservations >= 1 && maxReservations <= 100_000_000, "timeservice.dedupe.max-reservations"
                    + " must be between 1 and 100000000, got " + maxReservations);
        }
    }

    /**
     * {@code timeservice.schedules.*}.
     *
     * @param max        the most recurring schedules over all clocks (each one's pending occurrence also counts as a
     *                   timer in the capacity); beyond it a new schedule is refused with 429 {@code schedule_limit}
     * @param maxCatchUp the most occurrences of one schedule that one step (an advance, a firing round) fires; the
     *                   rest due by then are skipped and counted
     */
    public record Schedules(@DefaultValue("100000") long max, @DefaultValue("1000") int maxCatchUp) {

        public Schedules {
            require(max >= 0 && max <= 100_000_000, "timeservice.schedules.max must be between 0 and 100000000,"
                    + " got " + max);
            require(maxCatchUp >= 1 && maxCatchUp <= 1_000_000, "timeservice.schedules.max-catch-up must be between"
                    + " 1 and 1000000, got " + maxCatchUp);
        }
    }

    /**
     * {@code timeservice.push.*}: push delivery (docs/PUSH.md).
     *
     * @param allowedHosts        host names (whatever they resolve to) and CIDR ranges that push targets may reach
     *                            besides public addresses
     * @param allowPrivateTargets allow every address, loopback and private ones included (tests, private
     *                            networks); logged as a WARN at start-up
     * @param threads             claims and settlements running at once (store calls)
     * @param ioThreads           the HTTP client's I/O threads
     * @param maxConnections      the most connections open at once over every target
     * @param sweep               how often the pusher looks at its push clocks without being told
     * @param shutdownGrace       how long a stop waits for pushes in flight; the rest are pushed again later
     */
    public record Push(@DefaultValue List<String> allowedHosts, @DefaultValue("false") boolean allowPrivateTargets,
                       @DefaultValue("4") int threads, @DefaultValue("2") int ioThreads,
                       @DefaultValue("2000") int maxConnections, @DefaultValue("1s") Duration sweep,
                       @DefaultValue("5s") Duration shutdownGrace) {

        public Push {
            require(threads >= 1 && threads <= 64, "timeservice.push.threads must be between 1 and 64, got "
                    + threads);
            require(ioThreads >= 1 && ioThreads <= 64, "timeservice.push.io-threads must be between 1 and 64, got "
                    + ioThreads);
            require(maxConnections >= 1 && maxConnections <= 100_000, "timeservice.push.max-connections must be"
                    + " between 1 and 100000, got " + maxConnections);
            require(sweep.compareTo(Duration.ofMillis(10)) >= 0 && sweep.compareTo(Duration.ofMinutes(1)) <= 0,
                    "timeservice.push.sweep must be between 10ms and 1m, got " + sweep);
            require(!shutdownGrace.isNegative() && shutdownGrace.compareTo(Duration.ofMinutes(1)) <= 0,
                    "timeservice.push.shutdown-grace must be between 0 and 1m, got " + shutdownGrace);
            for (String host : allowedHosts) {
                try {
                    new io.timeservice.push.PushTargetPolicy(false, List.of(host), h -> new java.net.InetAddress[0]);
                } catch (IllegalArgumentException bad) {
                    throw new IllegalArgumentException("timeservice.push.allowed-hosts: " + bad.getMessage());
                }
            }
        }
    }

    /**
     * {@code timeservice.firing.*}.
     *
     * @param maxSleep  the longest the firing thread sleeps at once: how soon it notices a forward step of the wall
     *                  clock (it wakes at every due time regardless)
     * @param roundSize most timers one round fires on one clock before the other clocks get their turn
     */
    public record Firing(@DefaultValue("1s") Duration maxSleep, @DefaultValue("10000") int roundSize) {

        public Firing {
            require(maxSleep.compareTo(Duration.ofMillis(10)) >= 0 && maxSleep.compareTo(Duration.ofMinutes(1)) <= 0,
                    "timeservice.firing.max-sleep must be between 10ms and 1m, got " + maxSleep);
            require(roundSize >= 1 && roundSize <= 1_000_000,
                    "timeservice.firing.round-size must be between 1 and 1000000, got " + roundSize);
        }
    }

    /**
     * {@code timeservice.postgresql.*}: the PostgreSQL store's firing loop (one per instance, over every clock; its
     * rounds are {@code timeservice.firing.round-size} rows per statement).
     *
     * @param slowPoll       the longest the loop sleeps: how late an instance fires what another instance accepted
     *                       and could not fire itself (it died); changes on this instance wake it on time
     * @param ackedRetention how long acknowledged deliveries are kept, so that a repeated ack still answers success
     * @param samplePeriod   how often the loop samples the gauges' counts (one O(rows) statement) and the skew
     * @param lockTimeout    the longest a call's transaction waits for a row another holds (a clock an advance or
     *                       a deletion holds, a timer being edited); then it answers 503 {@code storage_unavailable}
     *                       ("busy"), nothing changed. Keep it below the pool's connection timeout, so that calls
     *                       waiting for one busy clock cannot keep every connection from the other clocks
     * @param statementTimeout the longest one statement of a call's transaction runs; then the same answer
     * @param directUrl      unset (the default): {@code spring.datasource.url} is a direct connection and serves
     *                       everything. Set: {@code spring.datasource.url} goes through a pooler in transaction mode
     *                       (pgbouncer), which keeps no session state, and this JDBC URL reaches PostgreSQL directly
     *                       for what needs a session: the {@code LISTEN} connection and Flyway's migrations. The
     *                       pooled URL must then prepare no statements on the server ({@code prepareThreshold=0}),
     *                       which start-up checks
     */
    public record Postgresql(@DefaultValue("5s") Duration slowPoll, @DefaultValue("5m") Duration ackedRetention,
                             @DefaultValue("15s") Duration samplePeriod, @DefaultValue("2s") Duration lockTimeout,
                             @DefaultValue("1m") Duration statementTimeout, String directUrl) {

        public Postgresql {
            require(slowPoll.compareTo(Duration.ofMillis(10)) >= 0 && slowPoll.compareTo(Duration.ofHours(1)) <= 0,
                    "timeservice.postgresql.slow-poll must be between 10ms and 1h, got " + slowPoll);
            require(!ackedRetention.isNegative() && ackedRetention.compareTo(Duration.ofDays(30)) <= 0,
                    "timeservice.postgresql.acked-retention must be between 0 and 30d, got " + ackedRetention);
            require(samplePeriod.compareTo(Duration.ofMillis(100)) >= 0
                            && samplePeriod.compareTo(Duration.ofHours(1)) <= 0,
                    "timeservice.postgresql.sample-period must be between 100ms and 1h, got " + samplePeriod);
            require(lockTimeout.compareTo(Duration.ofMillis(10)) >= 0
                            && lockTimeout.compareTo(Duration.ofMinutes(10)) <= 0,
                    "timeservice.postgresql.lock-timeout must be between 10ms and 10m, got " + lockTimeout);
            require(statementTimeout.compareTo(Duration.ofMillis(100)) >= 0
                            && statementTimeout.compareTo(Duration.ofHours(1)) <= 0,
                    "timeservice.postgresql.statement-timeout must be between 100ms and 1h, got " + statementTimeout);
            if (directUrl != null && directUrl.isBlank()) {
                directUrl = null;
            }
            require(directUrl == null || directUrl.startsWith("jdbc:postgresql:"),
                    "timeservice.postgresql.direct-url must be a PostgreSQL JDBC URL (jdbc:postgresql://...), got "
                            + directUrl);
        }

        /** Whether {@code spring.datasource.url} goes through a transaction pooler ({@link #directUrl} set). */
        public boolean pooled() {
            return directUrl != null;
        }

        /** The store's form of the two timeouts. */
        public PostgresStore.Timeouts timeouts() {
            return new PostgresStore.Timeouts(lockTimeout, statementTimeout);
        }
    }

    /**
     * {@code timeservice.clocks.*}.
     *
     * @param max     the most clocks of every mode together (virtual, system, scaled), the {@code default} one
     *                included
     * @param idleTtl a virtual clock no call addressed for this long is deleted (journaled, as by {@code DELETE}),
     *                with its unacknowledged deliveries; unset (the default): never. At least
     *                {@link #MIN_IDLE_TTL}: a long-polling claim addresses its clock once, when it starts, and may
     *                then wait {@link io.timeservice.model.Limits#MAX_CLAIM_WAIT_MILLIS} (30 s), so a shorter TTL
     *                could delete the clock of a worker that is waiting on it
     */
    public record ClockLimits(@DefaultValue("10000") int max, Duration idleTtl) {

        /** Twice the longest claim wait: a worker that long-polls again at once keeps its clock. */
        static final Duration MIN_IDLE_TTL = Duration.ofMillis(2 * io.timeservice.model.Limits.MAX_CLAIM_WAIT_MILLIS);

        public ClockLimits {
            require(max >= 1 && max <= 1_000_000, "timeservice.clocks.max must be between 1 and 1000000, got " + max);
            require(idleTtl == null || (idleTtl.compareTo(MIN_IDLE_TTL) >= 0
                            && idleTtl.compareTo(Duration.ofDays(3650)) <= 0),
                    "timeservice.clocks.idle-ttl must be between 1m and 3650d (or unset: never), got " + idleTtl);
        }
    }

    /**
     * @param multiple       snapshot when the journal since the last snapshot is this many times the live state
     * @param minJournalSize ... and at least this large, so small queues are not snapshotted constantly
     */
    public record Snapshot(@DefaultValue("4") int multiple, @DefaultValue("16MB") DataSize minJournalSize) {

        public Snapshot {
            require(multiple >= 1 && multiple <= 1000,
                    "timeservice.snapshot.multiple must be between 1 and 1000, got " + multiple);
            require(minJournalSize.toBytes() >= 0,
                    "timeservice.snapshot.min-journal-size must be >= 0, got " + minJournalSize);
        }
    }

    /**
     * @param segmentSize       a journal segment rolls once it holds this much, independent of snapshots
     * @param maxUnflushedBytes above this much journal data not yet written to the OS (a stalled disk), changes
     *                          are refused with 503 {@code storage_unavailable} instead of filling the heap
     */
    public record Journal(@DefaultValue("32MB") DataSize segmentSize,
                          @DefaultValue("64MB") DataSize maxUnflushedBytes) {

        private static final long MB = 1024 * 1024;

        public Journal {
            require(segmentSize.toBytes() >= MB && segmentSize.toBytes() <= 1024 * MB,
                    "timeservice.journal.segment-size must be between 1MB and 1GB, got " + segmentSize);
            require(maxUnflushedBytes.toBytes() >= MB && maxUnflushedBytes.toBytes() <= 1024 * MB,
                    "timeservice.journal.max-unflushed-bytes must be between 1MB and 1GB, got " + maxUnflushedBytes);
        }
    }

    /**
     * @param minCheckInterval with more than {@code rateLimitedAbove} timers pending, at most one invariant walk
     *                         (an O(n) copy and check) starts per this interval; requests in between get the last
     *                         report with {@code current: false}
     * @param rateLimitedAbove queue size above which the interval applies; smaller queues are walked on every change
     */
    public record Invariants(@DefaultValue("5s") Duration minCheckInterval,
                             @DefaultValue("100000") int rateLimitedAbove) {

        public Invariants {
            require(!minCheckInterval.isNegative(),
                    "timeservice.invariants.min-check-interval must be >= 0, got " + minCheckInterval);
            require(rateLimitedAbove >= 0,
                    "timeservice.invariants.rate-limited-above must be >= 0, got " + rateLimitedAbove);
        }
    }

    /** @param arity children per heap node: 2, 4 or 8 (see docs/BENCHMARKS.md for the default's numbers) */
    public record Heap(@DefaultValue("4") int arity) {

        public Heap {
            require(arity == 2 || arity == 4 || arity == 8, "timeservice.heap.arity must be 2, 4 or 8, got " + arity);
        }
    }

    /**
     * @param maxBodyBytes    largest request body accepted; larger gets 413
     * @param maxPayloadBytes largest timer payload, as compact JSON in UTF-8; larger gets 413
     * @param bodyReadTimeout the longest a request body may take to arrive, however it is paced; slower gets 400
     * @param maxSnapshotBytes largest snapshot document {@code PUT /clocks/{clock}/snapshot} reads (its own limit,
     *                         in place of max-body-bytes); larger gets 413, and a save of a larger one is refused
     *                         the same way; unset, it follows the capacity ({@link #defaultMaxSnapshotBytes})
     */
    public record Limits(@DefaultValue("65536") int maxBodyBytes, @DefaultValue("16384") int maxPayloadBytes,
                         @DefaultValue("30s") Duration bodyReadTimeout,
                         DataSize maxSnapshotBytes) {

        public Limits {
            require(maxSnapshotBytes == null || maxSnapshotBytes.toBytes() >= 1024
                            && maxSnapshotBytes.toBytes() <= io.timeservice.model.Limits.MAX_SNAPSHOT_BYTES,
                    "timeservice.limits.max-snapshot-bytes must be between 1KB and "
                            + io.timeservice.model.Limits.MAX_SNAPSHOT_BYTES / (1024 * 1024) + "MB (a loaded clock is"
                            + " one journal record), got " + maxSnapshotBytes);
            require(!bodyReadTimeout.isNegative() && !bodyReadTimeout.isZero(),
                    "timeservice.limits.body-read-timeout must be positive, got " + bodyReadTimeout);
            // a payload is shorter than the body, so every accepted payload fits a journal record
            require(maxBodyBytes >= 1024 && maxBodyBytes <= JournalWriter.MAX_PAYLOAD_BYTES,
                    "timeservice.limits.max-body-bytes must be between 1024 and " + JournalWriter.MAX_PAYLOAD_BYTES
                            + ", got " + maxBodyBytes);
            require(maxPayloadBytes >= 0 && maxPayloadBytes < maxBodyBytes,
                    "timeservice.limits.max-payload-bytes must be between 0 and max-body-bytes, got "
                            + maxPayloadBytes);
        }

        Limits withMaxSnapshotBytes(DataSize size) {
            return new Limits(maxBodyBytes, maxPayloadBytes, bodyReadTimeout, size);
        }
    }

    /**
     * @param enabled allows {@code POST /demo/reset}, which wipes the queue and restarts the clock at 0 so the web
     *                view can load its scenarios. Off by default so that no page button can wipe a real queue.
     */
    public record Demo(@DefaultValue("false") boolean enabled) {
    }

    /**
     * Bearer tokens. With none configured the service is in protected mode: it serves the API and the actuator only
     * to clients on its own machine (loopback) and answers everyone else 403 {@code protected_mode}, unless
     * {@code open} turns that off. With any token configured, every API call needs
     * {@code Authorization: Bearer <token>}: a read token allows the GET calls, a write token allows everything.
     * Tokens are compared in constant time and never logged; {@link #toString()} shows only how many there are.
     *
     * @param readTokens   tokens allowed to read (comma-separated in one property or environment variable)
     * @param writeTokens  tokens allowed to read and change the queue
     * @param openActuator lets {@code info}, {@code metrics} and {@code prometheus} answer without a token; only
     *                     meant for a separate {@code management.server.port} that only the scraper can reach
     * @param open         with no token configured, serves every client, not only loopback ones: for trusted
     *                     networks only (start-up warns); refused together with tokens, which it would contradict
     */
    public record Security(@DefaultValue List<String> readTokens,
                           @DefaultValue List<String> writeTokens,
                           @DefaultValue("false") boolean openActuator,
                           @DefaultValue("false") boolean open) {

        /** RFC 6750's b64token, so that every configured token can be sent in an Authorization header. */
        private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");
        public static final int MIN_TOKEN_LENGTH = 16;
        public static final int MAX_TOKEN_LENGTH = 512;

        public Security {
            readTokens = List.copyOf(readTokens);
            writeTokens = List.copyOf(writeTokens);
            checkTokens(readTokens, "timeservice.security.read-tokens");
            checkTokens(writeTokens, "timeservice.security.write-tokens");
            require(!open || (readTokens.isEmpty() && writeTokens.isEmpty()),
                    "timeservice.security.open=true serves every client without a token, yet "
                            + (readTokens.size() + writeTokens.size()) + " token(s) are configured: "
                            + "remove the tokens or the open setting");
        }

        public boolean enabled() {
            return !readTokens.isEmpty() || !writeTokens.isEmpty();
        }

        /** No token and not explicitly open: only loopback clients may use the API and the actuator. */
        public boolean protectedMode() {
            return !enabled() && !open;
        }

        /** Never the tokens themselves: this record may end up in a log line or an exception message. */
        @Override
        public String toString() {
            return "Security[readTokens=" + readTokens.size() + " configured, writeTokens=" + writeTokens.size()
                    + " configured, openActuator=" + openActuator + ", open=" + open + "]";
        }

        /** The messages name the property and the position, never the token's text. */
        private static void checkTokens(List<String> tokens, String property) {
            for (int i = 0; i < tokens.size(); i++) {
                String token = tokens.get(i);
                require(token != null && token.length() >= MIN_TOKEN_LENGTH && token.length() <= MAX_TOKEN_LENGTH,
                        property + "[" + i + "] must be " + MIN_TOKEN_LENGTH + " to " + MAX_TOKEN_LENGTH
                                + " characters long, got " + (token == null ? 0 : token.length()));
                require(TOKEN.matcher(token).matches(), property + "[" + i + "] may contain only A-Z a-z 0-9 - . _ ~"
                        + " + / and trailing =, so that it fits an Authorization header");
            }
        }
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * The QStash drop-in API (issue 47, docs/DROP-IN.md).
     *
     * @param mode               whether the {@code qstash-r<retries>} clocks made on first use are virtual (tests
     *                           advance them) or system
     * @param currentSigningKey  signs every message's {@code Upstash-Signature}; none: messages leave unsigned
     * @param nextSigningKey     the key that becomes the current one at the next rotation: never signs, only shown by
     *                           {@code GET /v2/keys} with the current one, as QStash shows both (receivers hold both, so
     *                           the SDK's {@code Receiver} verifies a message signed with either). To rotate, set the
     *                           next key as the current one and a new next key, and restart
     */
    public record Qstash(@DefaultValue("virtual") io.timeservice.model.ClockSettings.Mode mode,
                         String currentSigningKey, String nextSigningKey) {

        /** Never the keys themselves: this record may end up in a log line or an exception message. */
        @Override
        public String toString() {
            return "Qstash[mode=" + mode + ", currentSigningKey=" + (currentSigningKey == null ? "none" : "set")
                    + ", nextSigningKey=" + (nextSigningKey == null ? "none" : "set") + "]";
        }
    }
}
