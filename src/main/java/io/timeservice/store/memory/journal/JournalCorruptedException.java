package io.timeservice.store.memory.journal;


/** The data directory holds something recovery must not guess about; start-up stops with this message. */
public final class JournalCorruptedException extends RuntimeException {

    public JournalCorruptedException(String message) {
        super(message);
    }
}
