package io.timeservice.web;

import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;

/**
 * A reader that keeps the text a parser reads from it, so that the parser's caller can take the text of a value it
 * has parsed (a snapshot document's payload, as the client wrote it) while a large document streams: it keeps at
 * least the last {@value #KEEP} characters (more than a parser reads ahead) and, while {@link #pin pinned}, every
 * character from the pin on; older text is dropped once {@value #TRIM_AT} characters are kept. Offsets count the
 * characters from the start of the stream, as a parser's locations do. Not thread-safe: one parser reads it.
 */
final class RecordingReader extends FilterReader {

    static final int KEEP = 32 * 1024;
    private static final int TRIM_AT = 4 * KEEP;

    private final StringBuilder kept = new StringBuilder();
    /** The offset of {@code kept}'s first character. */
    private long keptFrom;
    private long pinned = -1;

    RecordingReader(Reader in) {
        super(in);
    }

    @Override
    public int read(char[] buffer, int offset, int length) throws IOException {
        int read = super.read(buffer, offset, length);
        if (read > 0) {
            kept.append(buffer, offset, read);
            trim();
        }
        return read;
    }

    @Override
    public int read() throws IOException {
        int c = super.read();
        if (c >= 0) {
            kept.append((char) c);
            trim();
        }
        return c;
    }

    @Override
    public long skip(long n) {
        throw new UnsupportedOperationException("a recorded stream is read, not skipped");
    }

    /** Keeps every character from {@code offset} (which is still kept) until {@link #text} takes them. */
    void pin(long offset) {
        if (offset < keptFrom) {
            throw new IllegalStateException("offset " + offset + " was dropped already (kept from " + keptFrom + ")");
        }
        pinned = offset;
    }

    /** The text from the pinned offset to {@code end} (exclusive); the pin is released. */
    String text(long end) {
        String text = kept.substring((int) (pinned - keptFrom), (int) (end - keptFrom));
        pinned = -1;
        return text;
    }

    private void trim() {
        if (kept.length() < TRIM_AT) {
            return;
        }
        long from = keptFrom + kept.length() - KEEP;
        if (pinned >= 0) {
            from = Math.min(from, pinned);
        }
        if (from > keptFrom) {
            kept.delete(0, (int) (from - keptFrom));
            keptFrom = from;
        }
    }
}
