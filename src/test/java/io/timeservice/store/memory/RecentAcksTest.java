package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.Ack;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;

/**
 * Acknowledged claims are remembered within one bound over all clocks, oldest forgotten first: memory that many
 * busy queue clocks cannot multiply (each kept its own 10,000, outside every budget, and snapshots copied them all).
 */
class RecentAcksTest {

    @Test
    void manyBusyClocks_rememberAtMostTheBoundTogether_forgettingTheOldestAck() {
        DeliveryTestClocks test = new DeliveryTestClocks(100_000, 100_000);
        int clocks = RecentAcks.MAX / 10_000 + 1;
        Delivery first = null;
        Delivery last = null;
        List<TimerScheduler> queues = new ArrayList<>();
        for (int c = 0; c < clocks; c++) {
            TimerScheduler queue = test.create("q" + c, DeliveryTestClocks.VIRTUAL_QUEUE);
            queues.add(queue);
            for (int i = 0; i < 10_000; i++) {
                queue.add("t" + i, 1, 0, null, Trace.NONE);
            }
            queue.advance(1, Trace.NONE);
            for (List<Delivery> claimed = queue.claim(Limits.MAX_CLAIM, 60_000, 0); !claimed.isEmpty();
                 claimed = queue.claim(Limits.MAX_CLAIM, 60_000, 0)) {
                queue.ackAll(claimed.stream().map(d -> new Ack(d.id(), d.claim())).toList());
                first = first == null ? claimed.get(0) : first;
                last = claimed.get(claimed.size() - 1);
            }
        }

        int remembered = 0;
        for (TimerScheduler queue : queues) {
            queue.holdForSnapshot();
            try {
                remembered += queue.stateForSnapshot().recentAcks().size();
            } finally {
                queue.releaseForSnapshot();
            }
        }
        assertThat(remembered).isEqualTo(RecentAcks.MAX);
        queues.get(clocks - 1).ack(last.id(), last.claim()); // the newest is remembered: 204 again
        Delivery oldest = first;
        assertThatThrownBy(() -> queues.get(0).ack(oldest.id(), oldest.claim()))
                .isInstanceOfSatisfying(ProblemException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CLAIM_LOST));
    }

    @Test
    void aClockClearedOrAckedAgain_keepsTheCountExact() {
        RecentAcks acks = new RecentAcks(3);
        RecentAcks.Share a = acks.newShare();
        RecentAcks.Share b = acks.newShare();
        a.remember("a1", "x");
        b.remember("b1", "y");
        a.remember("a2", "x");
        a.remember("a1", "x");                  // again: now the newest, still one
        b.remember("b2", "y");                  // over the bound: b1, the oldest, goes

        assertThat(acks.size()).isEqualTo(3);
        assertThat(b.remembers("b1", "y")).isFalse();
        assertThat(a.image()).containsExactly(new RecentAck("a2", "x"), new RecentAck("a1", "x"));
        assertThat(a.remembers("a1", "other")).isFalse();
        a.clear();
        assertThat(acks.size()).isEqualTo(1);
        assertThat(b.image()).containsExactly(new RecentAck("b2", "y"));
    }
}
