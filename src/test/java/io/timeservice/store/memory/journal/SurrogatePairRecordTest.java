package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import io.timeservice.model.Timer;
import io.timeservice.store.memory.Mutation;
import org.junit.jupiter.api.Test;

/**
 * A payload with characters outside the Basic Multilingual Plane (a surrogate pair in Java's UTF-16) is journaled as
 * 4-byte UTF-8 and reads back as the same string, so such a timer is recovered exactly as it was accepted.
 */
class SurrogatePairRecordTest {

    @Test
    void aPayloadWithSurrogatePairs_roundTripsThroughARecordUnchanged() {
        String grinning = new String(Character.toChars(0x1F600));
        String payload = "{\"" + grinning + "\":[\"a" + grinning + "b\"],\"s\":\"" + grinning + grinning + "\"}";
        Mutation added = new Mutation.Added(new Timer("E", 20, 0, 3, 1, 0, payload), 1_700_000_000_000L);

        GrowableBuffer buffer = RecordCodec.encode(added, new GrowableBuffer(16));
        ByteBuffer body = ByteBuffer.wrap(buffer.array(), RecordCodec.FRAME_HEADER_BYTES,
                buffer.length() - RecordCodec.FRAME_HEADER_BYTES);
        Mutation decoded = RecordCodec.decode(body.slice());

        assertThat(decoded).isEqualTo(added);
        assertThat(((Mutation.Added) decoded).timer().payload()).isEqualTo(payload)
                .hasSize(payload.length());
    }
}
