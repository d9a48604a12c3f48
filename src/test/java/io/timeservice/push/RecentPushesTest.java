package io.timeservice.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.timeservice.model.Delivery;
import org.junit.jupiter.api.Test;

class RecentPushesTest {

    private final AtomicLong wall = new AtomicLong(1_000);
    private final RecentPushes recent = new RecentPushes(wall::get);
    private final List<PushOutcome.Kind> measured = new ArrayList<>();
    private final PushMetrics metrics = recent.around(new PushMetrics() {
        @Override
        public void attempt(PushOutcome.Kind outcome, long nanos) {
            measured.add(outcome);
        }

        @Override
        public PushAttempt attemptStarted(String clock, long incarnation, Delivery delivery, String url,
                                          boolean last) {
            return () -> Map.of("traceparent", "00-inner");
        }
    });

    private static Delivery delivery(String id, long sequence, int attempt) {
        return new Delivery(id, 0, 0, sequence, null, attempt, Delivery.State.IN_FLIGHT, "claim", 5, 0, 0, null);
    }

    @Test
    void eachEndedAttempt_isKeptNewestFirst_perClock_withoutItsUrl_andTheMetricsStillHearOfIt() {
        PushAttempt first = metrics.attemptStarted("jobs", 1, delivery("a", 1, 1), "https://secret@host/p?token=x",
                false);
        assertThat(first.headers()).as("the wrapped attempt's headers").containsEntry("traceparent", "00-inner");
        wall.set(2_000);
        first.ended(PushOutcome.answered(503, null));
        metrics.attempt(PushOutcome.Kind.HTTP_5XX, 10);
        wall.set(3_000);
        metrics.attemptStarted("jobs", 1, delivery("b", 2, 2), "https://host/", true)
                .ended(PushOutcome.failed(PushOutcome.Kind.TIMEOUT, "no answer in 5000 ms"));
        metrics.attemptStarted("other", 1, delivery("c", 9, 1), "https://host/", false)
                .ended(PushOutcome.answered(204, null));

        assertThat(recent.of("jobs", 1)).extracting(RecentPushes.Recent::id, RecentPushes.Recent::at,
                RecentPushes.Recent::attempt, RecentPushes.Recent::outcome, RecentPushes.Recent::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("b", 3_000L, 2, "timeout", 0),
                        org.assertj.core.groups.Tuple.tuple("a", 2_000L, 1, "http_5xx", 503));
        assertThat(recent.of("jobs", 1).toString()).doesNotContain("secret", "token");
        assertThat(recent.of("other", 1)).extracting(RecentPushes.Recent::outcome).containsExactly("success");
        assertThat(recent.of("none", 1)).isEmpty();
        assertThat(measured).containsExactly(PushOutcome.Kind.HTTP_5XX);
        recent.forget("jobs");
        assertThat(recent.of("jobs", 1)).isEmpty();
    }

    @Test
    void aClockKeepsItsLastTwenty_andOnlyTheClocksPushedToMostRecently_areKept() {
        for (int i = 0; i < 25; i++) {
            metrics.attemptStarted("busy", 1, delivery("d" + i, i + 1, 1), "https://host/", false)
                    .ended(PushOutcome.answered(200, null));
        }
        assertThat(recent.of("busy", 1)).hasSize(RecentPushes.PER_CLOCK).first()
                .extracting(RecentPushes.Recent::id).isEqualTo("d24");
        assertThat(recent.of("busy", 1).get(RecentPushes.PER_CLOCK - 1).id()).isEqualTo("d5");
        for (int i = 0; i < RecentPushes.CLOCKS; i++) {
            metrics.attemptStarted("c" + i, 1, delivery("x", 1, 1), "https://host/", false)
                    .ended(PushOutcome.answered(200, null));
        }
        assertThat(recent.of("busy", 1)).as("the clock pushed to least recently is forgotten").isEmpty();
        assertThat(recent.of("c0", 1)).hasSize(1);
    }

    /**
     * A name's attempts are one incarnation's: the clock made again under it (a greater incarnation) sees none of the
     * old one's, and an attempt of the old one that ends late is not shown as the new one's.
     */
    @Test
    void aClockMadeAgainUnderItsName_seesNoneOfTheOldOnesAttempts_evenOnesThatEndLate() {
        PushAttempt late = metrics.attemptStarted("jobs", 7, delivery("late", 3, 1), "https://host/", false);
        metrics.attemptStarted("jobs", 7, delivery("a", 1, 1), "https://host/", false)
                .ended(PushOutcome.answered(200, null));
        assertThat(recent.of("jobs", 7)).extracting(RecentPushes.Recent::id).containsExactly("a");

        assertThat(recent.of("jobs", 9)).as("the clock made again").isEmpty();
        assertThat(recent.of("jobs", 7)).as("gone once the new one was read").isEmpty();
        metrics.attemptStarted("jobs", 9, delivery("b", 1, 1), "https://host/", false)
                .ended(PushOutcome.answered(200, null));
        late.ended(PushOutcome.answered(500, null));

        assertThat(recent.of("jobs", 9)).extracting(RecentPushes.Recent::id).containsExactly("b");
        metrics.attemptStarted("other", 3, delivery("c", 1, 1), "https://host/", false)
                .ended(PushOutcome.answered(200, null));
        metrics.attemptStarted("other", 4, delivery("d", 1, 1), "https://host/", false)
                .ended(PushOutcome.answered(200, null));
        assertThat(recent.of("other", 4)).as("a newer clock's attempt replaces the old one's")
                .extracting(RecentPushes.Recent::id).containsExactly("d");
    }
}
