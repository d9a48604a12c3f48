package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.timeservice.model.Ack;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A repeated ack answers "acknowledged" from the clock's recent acks without a change of its own; that answer
 * confirms the first ack, so it must wait until the first ack's record is durable — under fsync=always the first
 * ack's caller may still be waiting for the disk when the repeat arrives.
 */
class RepeatedAckDurabilityTest {

    private static final long LEASE = 1_000;

    private final RecordingLog journal = new RecordingLog();
    private MemoryClock queue;
    private List<Delivery> claimed;

    @BeforeEach
    void twoClaimedDeliveriesOnAJournaledQueueClock() {
        DeliveryTestClocks test = new DeliveryTestClocks();
        test.clocks.attachLog(journal);
        queue = test.create("q", DeliveryTestClocks.VIRTUAL_QUEUE);
        queue.add("a", 1, 0, null, Trace.NONE);
        queue.add("b", 1, 0, null, Trace.NONE);
        queue.advance(1, Trace.NONE);
        claimed = queue.claim(2, LEASE, 0);
    }

    @Test
    void aRepeatedAck_waitsForTheFirstAcksRecord() {
        queue.ack("a", claimed.get(0).claim());
        long firstAck = lastAwaited();
        assertThat(firstAck).isPositive();

        queue.ack("a", claimed.get(0).claim());

        assertThat(lastAwaited()).isGreaterThanOrEqualTo(firstAck);
    }

    @Test
    void aBatchOfRepeatedAcks_waitsForTheFirstAcksRecord() {
        queue.ackAll(List.of(new Ack("a", claimed.get(0).claim()),
                new Ack("b", claimed.get(1).claim())));
        long firstAcks = lastAwaited();
        assertThat(firstAcks).isPositive();

        List<ErrorCode> outcomes = queue.ackAll(List.of(new Ack("b", claimed.get(1).claim()),
                new Ack("a", "no-such-claim")));

        assertThat(outcomes).containsExactly(null, ErrorCode.CLAIM_LOST);
        assertThat(lastAwaited()).isGreaterThanOrEqualTo(firstAcks);
    }

    @Test
    void aBatchOfLostClaimsOnly_confirmsNothing_andWaitsForNothing() {
        List<ErrorCode> outcomes = queue.ackAll(List.of(new Ack("a", "no-such-claim")));

        assertThat(outcomes).containsExactly(ErrorCode.CLAIM_LOST);
        assertThat(lastAwaited()).isZero();
    }

    private long lastAwaited() {
        List<Long> awaited = journal.awaited();
        return awaited.get(awaited.size() - 1);
    }
}
