package io.timeservice.store;

import java.util.Arrays;
import java.util.List;

/**
 * The answer kept for an {@code Idempotency-Key}: its status, the headers that matter to a retry ({@code ETag},
 * {@code Location}, {@code Content-Type}, {@code Retry-After}) as name/value pairs, its body, and the fingerprint of
 * the request it answered (method, path and a digest of the body), which a repeat must match.
 */
public record KeptAnswer(String fingerprint, int status, List<Header> headers, byte[] body) {

    public KeptAnswer {
        headers = List.copyOf(headers);
        body = body.clone();
    }

    @Override
    public byte[] body() {
        return body.clone();
    }

    /** Bytes this answer holds, roughly: what the memory store counts against its cap. */
    public long bytes() {
        long bytes = fingerprint.length() + body.length + 16;
        for (Header header : headers) {
            bytes += header.name().length() + header.value().length();
        }
        return bytes;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof KeptAnswer that && fingerprint.equals(that.fingerprint) && status == that.status
                && headers.equals(that.headers) && Arrays.equals(body, that.body);
    }

    @Override
    public int hashCode() {
        return fingerprint.hashCode() * 31 + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "KeptAnswer[" + status + ", " + headers + ", " + body.length + " bytes]";
    }

    /** One header of a kept answer. */
    public record Header(String name, String value) {
    }
}
