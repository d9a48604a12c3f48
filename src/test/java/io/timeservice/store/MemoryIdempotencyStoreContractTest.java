package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.function.LongSupplier;

import io.timeservice.store.memory.AnswerLog;
import io.timeservice.store.memory.MemoryIdempotencyStore;
import io.timeservice.store.memory.journal.AnswerJournal;
import io.timeservice.store.memory.journal.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link IdempotencyStoreContract} on the memory store, and what only it has: kept answers journaled in
 * {@code idempotency.log} and back after a restart (expired ones not), a torn last record cut off.
 */
class MemoryIdempotencyStoreContractTest extends IdempotencyStoreContract {

    @TempDir
    Path dir;

    @Override
    protected IdempotencyStore open(LongSupplier wallMillis, Duration retention, long maxKeys) {
        return new MemoryIdempotencyStore(wallMillis, retention, maxKeys, AnswerLog.NONE);
    }

    /** A store on the journal in {@link #dir}, recovered from what it holds. */
    private MemoryIdempotencyStore journaled(AnswerJournal[] opened) throws IOException {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore(wall::get, RETENTION, 1_000, AnswerLog.NONE);
        opened[0] = AnswerJournal.open(dir, FsyncPolicy.ALWAYS, store::restore);
        store.logTo(opened[0]);
        return store;
    }

    @Test
    void aKeptAnswerIsReplayedAfterARestartAndAnExpiredOneIsNot() throws IOException {
        AnswerJournal[] journal = new AnswerJournal[1];
        MemoryIdempotencyStore before = journaled(journal);
        before.keep(KEY, (IdempotencyStore.Begun.Run) before.begin(KEY, ADD), CREATED);
        wall.addAndGet(RETENTION.toMillis() / 2);
        IdempotencyKey later = new IdempotencyKey("c2", "token:ab", "k-2");
        before.keep(later, (IdempotencyStore.Begun.Run) before.begin(later, ADD), CREATED);
        IdempotencyKey running = new IdempotencyKey("default", "anonymous", "k-3");
        before.begin(running, ADD); // never answered: the process dies
        journal[0].close(); // as a SIGKILL leaves it: written, not closed by the store

        MemoryIdempotencyStore after = journaled(journal);

        assertThat(after.begin(KEY, ADD)).isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));
        assertThat(after.begin(later, ADD)).isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));
        assertThat(after.begin(running, ADD)).isInstanceOf(IdempotencyStore.Begun.Run.class);
        journal[0].close();

        wall.addAndGet(RETENTION.toMillis() / 2);
        MemoryIdempotencyStore expired = journaled(journal);
        assertThat(expired.begin(KEY, ADD)).isInstanceOf(IdempotencyStore.Begun.Run.class);
        assertThat(expired.begin(later, ADD)).isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));
        journal[0].close();
    }

    @Test
    void aTornLastRecordIsCutOffAndTheOnesBeforeItRecovered() throws IOException {
        AnswerJournal[] journal = new AnswerJournal[1];
        MemoryIdempotencyStore before = journaled(journal);
        before.keep(KEY, (IdempotencyStore.Begun.Run) before.begin(KEY, ADD), CREATED);
        journal[0].close();
        Path file = dir.resolve(AnswerJournal.FILE_NAME);
        long good = Files.size(file);
        Files.write(file, new byte[] {0, 0, 0, 40, 1, 2, 3}, StandardOpenOption.APPEND); // a write cut short

        MemoryIdempotencyStore after = journaled(journal);

        assertThat(Files.size(file)).isEqualTo(good);
        assertThat(after.begin(KEY, ADD)).isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));
        IdempotencyKey next = new IdempotencyKey("default", "anonymous", "k-2");
        after.keep(next, (IdempotencyStore.Begun.Run) after.begin(next, ADD), CREATED);
        journal[0].close();
        assertThat(journaled(journal).begin(next, ADD)).isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));
        journal[0].close();
    }
}
