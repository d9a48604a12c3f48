package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JournalWriter#append} is all or nothing (the {@code MutationLog} contract the scheduler builds on): a record
 * whose encoding throws half-way leaves no bytes in the journal, so the records after it recover.
 */
class JournalAppendAllOrNothingTest {

    @TempDir
    Path dir;

    @Test
    void appendThatThrowsWhileEncoding_leavesNoPartialFrame_andLaterRecordsRecover() throws IOException {
        MemoryClock scheduler = MemoryClock.withVirtualClock(4, 100);
        Timer kept;
        try (JournalStore store = open(scheduler)) {
            scheduler.add("before", 5, 0, "{\"a\":1}", Trace.NONE);
            // The encoder writes the frame header and the whole body, then refuses the frame as too large: the buffer
            // holds most of a frame when the append fails, as after an OutOfMemoryError while it grows. (A record
            // the decoder would refuse is refused before any byte is written.)
            Timer huge = new Timer("huge", 5, 0, 99, 1, 0, "x".repeat(RecordCodec.MAX_BODY_BYTES + 1));
            assertThatThrownBy(() -> store.writer().append(new Mutation.Added(huge, 0)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("over the journal's limit");
            kept = scheduler.add("after", 7, 1, null, Trace.NONE);
        }
        MemoryClock recovered = MemoryClock.withVirtualClock(4, 100);
        try (JournalStore store = open(recovered)) {
            assertThat(recovered.firstN(10).timers()).extracting(Timer::id).containsExactly("before", "after");
            assertThat(recovered.get("after")).isEqualTo(kept);
        }
    }

    private JournalStore open(MemoryClock scheduler) throws IOException {
        return JournalStore.open(dir, scheduler, FsyncPolicy.ALWAYS, Duration.ofSeconds(1), 4, Long.MAX_VALUE);
    }
}
