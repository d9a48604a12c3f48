package io.timeservice.journal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A big-endian byte buffer that grows by doubling; reused between batches so appends allocate nothing. */
final class GrowableBuffer {

    private byte[] bytes;
    private int length;

    GrowableBuffer(int initialCapacity) {
        bytes = new byte[initialCapacity];
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

    /** Drops everything after the first {@code newLength} bytes. */
    void truncate(int newLength) {
        if (newLength < 0 || newLength > length) {
            throw new IllegalArgumentException("truncate to " + newLength + " outside 0.." + length);
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
        if (length + extra > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + extra));
        }
    }
}
