package io.timeservice.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The configured tokens, kept only as SHA-256 digests. {@link #scopeOf} compares a presented token with every
 * digest using {@link MessageDigest#isEqual} and never stops early, so neither the answer time nor its shape tells
 * an attacker how much of a guess was right or which list matched.
 */
final class BearerTokens {

    private final byte[][] readDigests;
    private final byte[][] writeDigests;

    BearerTokens(List<String> readTokens, List<String> writeTokens) {
        this.readDigests = readTokens.stream().map(BearerTokens::sha256).toArray(byte[][]::new);
        this.writeDigests = writeTokens.stream().map(BearerTokens::sha256).toArray(byte[][]::new);
    }

    /** The scope the token grants (write wins when a token is in both lists), or {@code null} for no match. */
    Scope scopeOf(String presented) {
        byte[] digest = sha256(presented);
        boolean read = matchesAny(digest, readDigests);
        boolean write = matchesAny(digest, writeDigests);
        return write ? Scope.WRITE : read ? Scope.READ : null;
    }

    /**
     * The caller's scope for {@code Idempotency-Key}s: {@code token:} and the first 16 bytes of the token's SHA-256 in
     * hex, so two tokens never share kept answers and the token itself is never stored.
     */
    static String callerOf(String token) {
        return "token:" + java.util.HexFormat.of().formatHex(sha256(token), 0, 16);
    }

    private static boolean matchesAny(byte[] digest, byte[][] candidates) {
        boolean matched = false;
        for (byte[] candidate : candidates) {
            matched |= MessageDigest.isEqual(digest, candidate);
        }
        return matched;
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
