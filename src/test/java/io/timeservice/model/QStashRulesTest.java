package io.timeservice.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The QStash rulebook's names: which clock names are QStash clocks, and dlqIds there and back (issue 47). */
class QStashRulesTest {

    @Test
    void retriesOf_readsOnlyTheClockNamesOfRetryCounts0To20() {
        assertThat(QStashRules.retriesOf("qstash-r0")).isZero();
        assertThat(QStashRules.retriesOf("qstash-r3")).isEqualTo(3);
        assertThat(QStashRules.retriesOf("qstash-r20")).isEqualTo(20);
        for (String other : new String[] {"qstash-r21", "qstash-r03", "qstash-r", "qstash-rx", "qstash-r-1",
                "default", "qstash-r3a", "qstash-r999999999999"}) {
            assertThat(QStashRules.retriesOf(other)).as(other).isEqualTo(-1);
        }
    }

    @Test
    void dlqId_roundTrips_atTheBounds() {
        for (long sequence : new long[] {0, 1, 999_999_999_999_999_999L}) {
            for (int retries : new int[] {0, 20}) {
                assertThat(QStashRules.ofDlqId(QStashRules.dlqId(retries, sequence)))
                        .containsExactly(retries, sequence);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "dlq_", "dlq_3", "dlq_3_", "dlq_21_1", "dlq_3_x", "dlq_-1_1", "dlq_3_-1",
            "dlq_3_9999999999999999999", "DLQ_3_1", "dlq_3_1 ", "msg_3_1"})
    void ofDlqId_refusesWhatNoDlqIdLooksLike_asNotFound(String text) {
        assertThatThrownBy(() -> QStashRules.ofDlqId(text)).isInstanceOfSatisfying(ProblemException.class,
                refused -> assertThat(refused.code()).isEqualTo(ErrorCode.DELIVERY_NOT_FOUND));
    }
}
