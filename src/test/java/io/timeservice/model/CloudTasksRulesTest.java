package io.timeservice.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timeservice.model.CloudTasksRules.QueueConfig;
import io.timeservice.model.CloudTasksRules.QueueName;
import org.junit.jupiter.api.Test;

/** The Cloud Tasks rulebook (issue 47): the naming rule both ways, a queue's config through its clock, encodings. */
class CloudTasksRulesTest {

    @Test
    void queueName_isTheClockCtProjectLocationQueue_andTheClockNamesItBack() {
        QueueName name = new QueueName("example.com:proj", "us-central1", "orders-1");
        assertThat(name.clock()).isEqualTo("ct~example.com:proj~us-central1~orders-1");
        assertThat(name.path()).isEqualTo("projects/example.com:proj/locations/us-central1/queues/orders-1");
        assertThat(QueueName.ofClock(name.clock())).isEqualTo(name);
        assertThat(QueueName.ofClock("qstash-r3")).isNull();
        assertThat(QueueName.ofClock("ct~a~b")).isNull();
    }

    @Test
    void queueName_refusesIdsOutsideCloudTasksRules_andClockNamesOver64() {
        assertThatThrownBy(() -> new QueueName("p", "l", "a_b")).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> new QueueName("p", "l/x", "q")).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> new QueueName("p", "l", "q".repeat(60))).isInstanceOf(ProblemException.class)
                .hasMessageContaining("longer than 64");
        assertThat(new QueueName("p", "l", "q".repeat(57)).clock()).hasSize(64);
    }

    @Test
    void queueConfig_roundTripsThroughItsClockSettings_withItsRatesAsTheClocksOwnLimits() {
        ClockSettings defaults = QueueConfig.DEFAULT.clockSettings(ClockSettings.Mode.VIRTUAL);
        assertThat(defaults.flow()).as("Cloud Tasks' default rates, so that an update can change them")
                .isEqualTo(new FlowLimits(null, null, null, 1_000, new FlowRate(500, 1_000)));
        assertThat(defaults.dedupeWindowMillis()).isEqualTo(3_600_000);
        assertThat(defaults.retry().maxAttempts()).isEqualTo(100);
        assertThat(defaults.retry().maxRetryDurationMillis()).isZero();
        assertThat(QueueConfig.of(defaults)).isEqualTo(QueueConfig.DEFAULT);

        QueueConfig limited = new QueueConfig(0.5, 10, -1, 90_000, 250, 30_000, 3);
        ClockSettings settings = limited.clockSettings(ClockSettings.Mode.SYSTEM);
        assertThat(settings.flow().clockConcurrency()).isEqualTo(10);
        assertThat(settings.flow().clockRate()).isEqualTo(new FlowRate(1, 2_000));
        assertThat(settings.retry().maxAttempts()).as("unlimited beside a duration: the duration alone ends retries")
                .isEqualTo(1);
        assertThat(settings.retry().maxRetryDurationMillis()).isEqualTo(90_000);
        assertThat(settings.retry().initialBackoffMillis()).isEqualTo(250);
        assertThat(QueueConfig.of(settings)).isEqualTo(limited);
        assertThat(new QueueConfig(1, 1, -1, 0, 0, 0, 0).clockSettings(ClockSettings.Mode.VIRTUAL).retry()
                .maxAttempts()).as("unlimited without a duration").isEqualTo(RetryPolicy.MAX_ATTEMPTS);
        assertThat(QueueConfig.of(ClockSettings.SYSTEM)).isNull();
    }

    @Test
    void queueConfig_change_givesTheClockTheNewConfig() {
        ClockSettings made = QueueConfig.DEFAULT.clockSettings(ClockSettings.Mode.VIRTUAL);
        QueueConfig patched = new QueueConfig(2.5, 7, 4, 60_000, 1_000, 1_000, 0);

        ClockSettings changed = patched.change().applyTo(made);

        assertThat(QueueConfig.of(changed)).isEqualTo(patched);
        assertThat(changed).isEqualTo(patched.clockSettings(ClockSettings.Mode.VIRTUAL));
    }

    @Test
    void queueConfig_refusesOutOfRange() {
        assertThatThrownBy(() -> new QueueConfig(0, 1, 1, 0, 0, 0, 0)).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> new QueueConfig(501, 1, 1, 0, 0, 0, 0)).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> new QueueConfig(1, 1, 0, 0, 0, 0, 0)).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> new QueueConfig(1, 1, 1, 0, 20, 10, 0)).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> new QueueConfig(1, 1, 1, RetryPolicy.MAX_RETRY_DURATION_MILLIS + 1, 0, 0, 0))
                .isInstanceOf(ProblemException.class);
    }

    @Test
    void flowRate_keepsWholeRatesPerSecond_andFractionsAsPeriods() {
        assertThat(CloudTasksRules.flowRate(5)).isEqualTo(new FlowRate(5, 1_000));
        assertThat(CloudTasksRules.flowRate(0.1)).isEqualTo(new FlowRate(1, 10_000));
        assertThat(CloudTasksRules.flowRate(2.5)).isEqualTo(new FlowRate(25, 10_000));
    }

    @Test
    void durationsAndTimestamps_inProtobufJson() {
        assertThat(CloudTasksRules.parseDuration("d", "10s")).isEqualTo(10_000);
        assertThat(CloudTasksRules.parseDuration("d", "0.1s")).isEqualTo(100);
        assertThat(CloudTasksRules.parseDuration("d", "1.000000001s")).isEqualTo(1_000);
        assertThat(CloudTasksRules.formatDuration(100)).isEqualTo("0.100s");
        assertThat(CloudTasksRules.formatDuration(3_600_000)).isEqualTo("3600s");
        assertThatThrownBy(() -> CloudTasksRules.parseDuration("d", "10")).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> CloudTasksRules.parseDuration("d", "-1s")).isInstanceOf(ProblemException.class);
        assertThat(CloudTasksRules.parseTimestamp("t", "1970-01-01T00:00:01.5Z")).isEqualTo(1_500);
        assertThat(CloudTasksRules.formatTimestamp(1_500)).isEqualTo("1970-01-01T00:00:01.500Z");
        assertThatThrownBy(() -> CloudTasksRules.parseTimestamp("t", "1969-12-31T23:59:59Z"))
                .isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> CloudTasksRules.parseTimestamp("t", "tomorrow")).isInstanceOf(ProblemException.class);
    }

    @Test
    void dispatchDeadline_isCloudTasksRange_andAnAttemptAtMostAPushTimeout() {
        assertThat(CloudTasksRules.dispatchDeadlineMillis(null)).isEqualTo(600_000);
        assertThat(CloudTasksRules.dispatchDeadlineMillis("15s")).isEqualTo(15_000);
        assertThatThrownBy(() -> CloudTasksRules.dispatchDeadlineMillis("14s")).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> CloudTasksRules.dispatchDeadlineMillis("1801s"))
                .isInstanceOf(ProblemException.class);
        CloudTask task = new CloudTask("http://x/", "POST", java.util.Map.of(), new byte[0], 600_000, 0);
        assertThat(task.attemptTimeoutMillis()).isEqualTo(PushTarget.MAX_TIMEOUT_MILLIS);
    }
}
