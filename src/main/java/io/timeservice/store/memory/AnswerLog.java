package io.timeservice.store.memory;

import java.util.List;

import io.timeservice.store.IdempotencyKey;
import io.timeservice.store.KeptAnswer;

/**
 * Where the memory store's kept {@code Idempotency-Key} answers are made durable ({@code journal/AnswerJournal} in
 * the data directory), so that a retry after a restart still gets its answer. Called under the store's lock.
 */
public interface AnswerLog {

    /** Nothing is made durable: {@code timeservice.durability=none}. */
    AnswerLog NONE = new AnswerLog() {
        @Override
        public void kept(SavedAnswer saved) {
        }

        @Override
        public boolean wantsCompaction(int live) {
            return false;
        }

        @Override
        public void compact(List<SavedAnswer> live) {
        }
    };

    /** Records a kept answer before it is answered; throws when it could not (the answer is then not kept). */
    void kept(SavedAnswer saved);

    /** Whether the log holds so much more than the {@code live} answers that it should be rewritten. */
    boolean wantsCompaction(int live);

    /** Rewrites the log to hold only {@code live}. */
    void compact(List<SavedAnswer> live);

    /** A kept answer with its key and the wall-clock time it expires at. */
    record SavedAnswer(IdempotencyKey key, KeptAnswer answer, long expiresAt) {
    }
}
