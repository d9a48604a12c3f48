package io.timeservice.store.memory.journal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A big-endian byte buffer that grows by doubling; reused between batches so appends allocate nothing. It never
 * grows past {@link #MAX_CAPACITY}: a write that would needs more throws {@link IllegalStateException} with the
 * buffer unchanged (the journal bounds its batches far below that, see {@code max-unflushed-bytes}).
 */
final class GrowableBuffer {

    /** The largest array the JVM reliably allocates. */
    static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

    private final int maxCapacity;
    private byte[] bytes;
    private int length;

    GrowableBuffer(int initialCapacity) {
        this(initialCapacity, MAX_CAPACITY);
    }

    /** A buffer that never grows past {@code maxCapacity} bytes (tests use small limits). */
    GrowableBuffer(int initialCapacity, int maxCapacity) {
        this.bytes = new byte[initialCapacity];
        this.maxCapacity = maxCapacity;
    }

    byte[] array() {
        return bytes;
    }

    int length() {
        return length;
    }

    void clear() {
        length = 0;
    }

    /** Drops everything after the first {@code newLength} bytes, e.g. a record whose encoding failed half-way. */
    void truncate(int newLength) {
        if (newLength < 0 || newLength > length) {
            throw new IllegalArgumentException("cannot truncate " + length + " bytes to " + newLength);
        }
        length = newLength;
    }

    void skip(int count) {
        ensure(count);
        length += count;
    }

    void putByte(byte value) {
        ensure(1);
        bytes[length++] = value;
    }

    void putInt(int value) {
        ensure(4);
        putIntAt(length, value);
        length += 4;
    }

    void putIntAt(int offset, int value) {
        bytes[offset] = (byte) (value >>> 24);
        bytes[offset + 1] = (byte) (value >>> 16);
        bytes[offset + 2] = (byte) (value >>> 8);
        bytes[offset + 3] = (byte) value;
    }

    void putLong(long value) {
        putInt((int) (value >>> 32));
        putInt((int) value);
    }

    void putLongAt(int offset, long value) {
        putIntAt(offset, (int) (value >>> 32));
        putIntAt(offset + 4, (int) value);
    }

    int getIntAt(int offset) {
        return (bytes[offset] & 0xff) << 24 | (bytes[offset + 1] & 0xff) << 16 | (bytes[offset + 2] & 0xff) << 8
                | bytes[offset + 3] & 0xff;
    }

    /** A string as u32 length and UTF-8 bytes; {@code null} as length -1. */
    void putString(String value) {
        if (value == null) {
            putInt(-1);
            return;
        }
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        putInt(utf8.length);
        ensure(utf8.length);
        System.arraycopy(utf8, 0, bytes, length, utf8.length);
        length += utf8.length;
    }

    void putBytes(byte[] source, int offset, int count) {
        ensure(count);
        System.arraycopy(source, offset, bytes, length, count);
        length += count;
    }

    private void ensure(int extra) {
        long needed = (long) length + extra;
        if (needed <= bytes.length) {
            return;
        }
        if (needed > maxCapacity) {
            throw new IllegalStateException("a journal buffer of " + length + " bytes cannot take " + extra
                    + " more: the limit is " + maxCapacity);
        }
        bytes = Arrays.copyOf(bytes, (int) Math.min(maxCapacity, Math.max(2L * bytes.length, needed)));
    }
}
