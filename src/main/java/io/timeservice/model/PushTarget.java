package io.timeservice.model;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a push clock POSTs its deliveries (issue 32). Immutable once a clock has it: a clock's settings never change,
 * so a pusher may keep what it read.
 *
 * @param url           an absolute {@code http} or {@code https} URL with a host, at most {@value #MAX_URL_LENGTH}
 *                      characters; kept in its ASCII form (RFC 3986: a character beyond ASCII in the path, query
 *                      or port is percent-encoded as UTF-8), its port 1 to 65535 when it has one, and an IPv4 host
 *                      only in the dotted-decimal form everyone reads alike
 * @param timeoutMillis how long one attempt may take, connection included, {@value #MIN_TIMEOUT_MILLIS} to
 *                      {@value #MAX_TIMEOUT_MILLIS} ms
 * @param concurrency   the most requests of this clock in flight at once, 1 to {@value #MAX_CONCURRENCY}
 * @param headers       static extra request headers by name (kept sorted, so equal settings compare equal); never
 *                      {@code webhook-*} or one the pusher sets itself ({@link #RESERVED_HEADERS})
 * @param secrets       the signing secrets, each signed with (two while a secret is rotated); write-only in the API
 */
public record PushTarget(String url, long timeoutMillis, int concurrency, Map<String, String> headers,
                         List<String> secrets) {

    public static final int MAX_URL_LENGTH = 2_048;
    public static final int MAX_PORT = 65_535;
    public static final long MIN_TIMEOUT_MILLIS = 100;
    public static final long MAX_TIMEOUT_MILLIS = 60_000;
    public static final long DEFAULT_TIMEOUT_MILLIS = 10_000;
    public static final int MAX_CONCURRENCY = 1_000;
    public static final int DEFAULT_CONCURRENCY = 16;
    public static final int MAX_HEADERS = 32;
    public static final int MAX_HEADER_VALUE_LENGTH = 1_024;
    public static final int MAX_SECRETS = 8;
    public static final int MAX_SECRET_LENGTH = 256;
    /** Prefix of a Standard Webhooks secret: the key is the base64 text after it. */
    public static final String SECRET_PREFIX = "whsec_";
    /** Headers the pusher writes itself or that would change the request's framing. */
    public static final List<String> RESERVED_HEADERS = List.of("host", "content-length", "content-type",
            "transfer-encoding", "connection");

    public PushTarget {
        url = requireUrl(url);
        require(timeoutMillis >= MIN_TIMEOUT_MILLIS && timeoutMillis <= MAX_TIMEOUT_MILLIS, "push.timeout must be "
                + MIN_TIMEOUT_MILLIS + " to " + MAX_TIMEOUT_MILLIS + " ms: " + timeoutMillis);
        require(concurrency >= 1 && concurrency <= MAX_CONCURRENCY, "push.concurrency must be 1 to "
                + MAX_CONCURRENCY + ": " + concurrency);
        headers = requireHeaders(headers == null ? Map.of() : headers);
        require(secrets == null || secrets.stream().noneMatch(java.util.Objects::isNull), "each of push.secrets must be a string, not null");
        secrets = List.copyOf(secrets == null ? List.of() : secrets);
        require(secrets.size() <= MAX_SECRETS, "push.secrets holds at most " + MAX_SECRETS + ": " + secrets.size());
        for (String secret : secrets) {
            requireSecret(secret);
        }
    }

    /** The URL as a URI (it parsed when this target was made). */
    public URI uri() {
        return URI.create(url);
    }

    /** The host of {@link #url} as written, without brackets around an IPv6 literal. */
    public String host() {
        String host = uri().getHost();
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    /** What the API shows: everything but the secrets, which are write-only. */
    @Override
    public String toString() {
        return "push to " + url + " (timeout " + timeoutMillis + " ms, concurrency " + concurrency + ", "
                + headers.size() + " headers, " + secrets.size() + " secrets)";
    }

    /** The URL checked and in its ASCII form. */
    private static String requireUrl(String url) {
        require(url != null && !url.isEmpty(), "push.url is required");
        require(url.length() <= MAX_URL_LENGTH, "push.url must be at most " + MAX_URL_LENGTH + " characters: "
                + url.length());
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException bad) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "push.url is not a URL: " + bad.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        require(scheme.equals("http") || scheme.equals("https"), "push.url must be http or https: "
                + TimerRules.abbreviate(url));
        require(uri.getHost() != null && uri.getRawUserInfo() == null && uri.getRawFragment() == null,
                "push.url needs a host (an internationalized name in its ASCII form) and no user info or fragment: "
                        + TimerRules.abbreviate(url));
        require(uri.getPort() == -1 || (uri.getPort() >= 1 && uri.getPort() <= MAX_PORT), "push.url's port must be 1"
                + " to " + MAX_PORT + ": " + uri.getPort());
        requireUnambiguousHost(uri.getHost());
        String ascii = uri.toASCIIString(); // RFC 3986: what is sent, never raw Latin-1 or '?'
        require(ascii.length() <= MAX_URL_LENGTH, "push.url must be at most " + MAX_URL_LENGTH + " characters once"
                + " percent-encoded: " + ascii.length());
        return ascii;
    }

    /**
     * Refuses an IPv4 host in a form that tools read differently: octal ({@code 0177.0.0.1}, loopback to most, 177.0.0.1
     * to Java), hexadecimal, or short ({@code 127.1}, {@code 2130706433}). A host whose last label is a number is an
     * IPv4 address (the WHATWG URL standard's rule, which browsers and curl follow), and then only four decimal numbers
     * of 0 to 255 without leading zeros are taken.
     */
    private static void requireUnambiguousHost(String host) {
        if (host.startsWith("[")) {
            return; // an IPv6 literal: one reading only
        }
        String[] labels = (host.endsWith(".") ? host.substring(0, host.length() - 1) : host).split("\\.", -1);
        String last = labels[labels.length - 1];
        if (!last.matches("[0-9]+|0[xX][0-9a-fA-F]*")) {
            return; // a name
        }
        boolean dottedDecimal = labels.length == 4 && !host.endsWith(".");
        for (String label : labels) {
            dottedDecimal &= label.matches("0|[1-9][0-9]{0,2}") && Integer.parseInt(label) <= 255;
        }
        require(dottedDecimal, "push.url's host " + TimerRules.abbreviate(host) + " is an IPv4 address in a form tools read"
                + " differently (octal, hexadecimal or short): write it as four decimal numbers without leading zeros");
    }

    private static Map<String, String> requireHeaders(Map<String, String> headers) {
        require(headers.size() <= MAX_HEADERS, "push.headers holds at most " + MAX_HEADERS + ": " + headers.size());
        TreeMap<String, String> sorted = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Map.Entry<String, String> header : headers.entrySet()) {
            String name = header.getKey();
            String value = header.getValue();
            require(name != null && isToken(name), "push.headers has a name that is not an HTTP token: "
                    + (name == null ? null : TimerRules.abbreviate(name)));
            String lower = name.toLowerCase(Locale.ROOT);
            require(!lower.startsWith("webhook-") && !RESERVED_HEADERS.contains(lower), "push.headers may not set "
                    + name + ": the pusher sets it");
            require(value != null && value.length() <= MAX_HEADER_VALUE_LENGTH && isFieldValue(value),
                    "push.headers." + name + " must be printable ASCII of at most " + MAX_HEADER_VALUE_LENGTH
                            + " characters");
            require(sorted.put(name, value) == null, "push.headers names " + name + " twice");
        }
        return java.util.Collections.unmodifiableMap(new TreeMap<>(sorted));
    }

    private static void requireSecret(String secret) {
        require(secret != null && !secret.isEmpty() && secret.length() <= MAX_SECRET_LENGTH && isFieldValue(secret),
                "each of push.secrets must be 1 to " + MAX_SECRET_LENGTH + " printable ASCII characters");
        if (secret.startsWith(SECRET_PREFIX)) {
            try {
                byte[] key = java.util.Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
                require(key.length >= 1, "a whsec_ secret needs a key after its prefix");
            } catch (IllegalArgumentException notBase64) {
                throw new ProblemException(ErrorCode.INVALID_REQUEST, "a whsec_ secret's key must be base64: "
                        + notBase64.getMessage());
            }
        }
    }

    /** The key a secret signs with: a {@code whsec_} secret's base64-decoded key, any other secret's UTF-8 bytes. */
    public static byte[] keyOf(String secret) {
        return secret.startsWith(SECRET_PREFIX)
                ? java.util.Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()))
                : secret.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static boolean isToken(String name) {
        if (name.isEmpty() || name.length() > 64) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean isFieldValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private static void require(boolean valid, String message) {
        if (!valid) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, message);
        }
    }
}
