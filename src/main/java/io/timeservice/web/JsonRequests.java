package io.timeservice.web;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.core.ErrorCode;
import io.timeservice.core.SchedulerException;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads request bodies strictly: a size cap before parsing, duplicate keys rejected, bounded nesting and number
 * length, unknown members rejected, and no coercion of any kind ({@code "5"}, {@code 2.5}, {@code true} and
 * {@code null} are not integers). Bodies are parsed to a tree and checked member by member so that each mistake
 * gets its own problem code ({@code invalid_delay} rather than a generic binding error).
 */
@Component
class JsonRequests {

    /** Deepest nesting of arrays and objects, the body's own object included. */
    static final int MAX_NESTING_DEPTH = 64;
    /**
     * Longest number literal parsed (Jackson's default). Long enough that any integer a client may plausibly send is
     * judged by its member's rule ({@code invalid_delay}, {@code invalid_advance}, ...) rather than refused as
     * malformed, short enough that parsing it costs nothing.
     */
    static final int MAX_NUMBER_LENGTH = 1000;
    /** Longest member name in characters (ids are at most 128; payload keys get some room). */
    static final int MAX_NAME_LENGTH = 1024;

    private final JsonMapper strictMapper;
    private final int maxBodyBytes;
    private final int maxPayloadBytes;
    private final Duration bodyReadTimeout;

    JsonRequests(TimeServiceProperties properties) {
        this.maxBodyBytes = properties.limits().maxBodyBytes();
        this.maxPayloadBytes = properties.limits().maxPayloadBytes();
        this.bodyReadTimeout = properties.limits().bodyReadTimeout();
        JsonFactory factory = JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .maxNumberLength(MAX_NUMBER_LENGTH)
                        // string and document limits equal the body cap, which readCapped enforces first; they
                        // are set anyway so that the parser never relies on Jackson's much larger defaults
                        .maxStringLength(maxBodyBytes)
                        .maxNameLength(MAX_NAME_LENGTH)
                        .maxDocumentLength(maxBodyBytes)
                        .build())
                .build();
        this.strictMapper = JsonMapper.builder(factory)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                // keep payload numbers as sent: a double would turn 1e400 into "Infinity" and round long fractions
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .build();
    }

    /** Reads the body as one JSON object whose member names are all in {@code allowed}. */
    ObjectNode readObject(HttpServletRequest request, Set<String> allowed) {
        return parseObject(readCapped(request), allowed);
    }

    /** Parses a body already read (and capped): see {@link #readObject}. */
    ObjectNode parseObject(byte[] bytes, Set<String> allowed) {
        String body = utf8(bytes);
        JsonNode tree;
        try {
            tree = strictMapper.readTree(body);
        } catch (StreamConstraintsException e) {
            throw invalidRequest("the body is not valid JSON: " + withoutInternals(e.getOriginalMessage())
                    + " (parsing limits: " + MAX_NESTING_DEPTH + " levels of nesting, " + MAX_NUMBER_LENGTH
                    + " characters per number, " + MAX_NAME_LENGTH + " per member name)");
        } catch (JacksonException e) {
            throw invalidRequest("the body is not valid JSON: " + withoutInternals(e.getOriginalMessage())
                    + position(e));
        }
        if (tree != null) {
            LoneSurrogates.refuse(tree);   // first: later checks echo names, and a lone surrogate breaks any answer
        }
        if (tree == null || tree.isMissingNode() || !tree.isObject()) {
            throw invalidRequest("the body must be a JSON object");
        }
        ObjectNode object = (ObjectNode) tree;
        for (String name : object.propertyNames()) {
            if (!allowed.contains(name)) {
                throw invalidRequest("unknown member \"" + abbreviate(name) + "\"; allowed: " + allowed);
            }
        }
        return object;
    }

    static JsonNode required(ObjectNode object, String name) {
        JsonNode value = object.get(name);
        if (value == null) {
            throw invalidRequest("member \"" + name + "\" is required");
        }
        return value;
    }

    /** A JSON integer in [0, 10^15]; anything else (fraction, string, null, boolean, out of range) is refused. */
    static long nonNegativeLong(JsonNode value, String name, ErrorCode code) {
        if (!value.isIntegralNumber()) {
            throw new SchedulerException(code, name + " must be a JSON integer, got " + describe(value));
        }
        BigInteger number = value.bigIntegerValue();
        if (number.signum() < 0 || number.compareTo(BigInteger.valueOf(io.timeservice.core.TimerScheduler.MAX_DELAY)) > 0) {
            throw new SchedulerException(code, name + " must be between 0 and "
                    + io.timeservice.core.TimerScheduler.MAX_DELAY + ": " + abbreviate(number.toString()));
        }
        return number.longValue();
    }

    /** A JSON integer in the signed 32-bit range. */
    static int priority(JsonNode value) {
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new SchedulerException(ErrorCode.INVALID_PRIORITY,
                    "priority must be a JSON integer in the signed 32-bit range, got " + describe(value));
        }
        return value.intValue();
    }

    static String id(JsonNode value) {
        if (!value.isString()) {
            throw new SchedulerException(ErrorCode.INVALID_ID, "id must be a JSON string, got " + describe(value));
        }
        return value.stringValue();
    }

    /** The payload as compact JSON text, or {@code null} for an absent or null payload. */
    String payload(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        String text = strictMapper.writeValueAsString(value);
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxPayloadBytes) {
            throw new SchedulerException(ErrorCode.PAYLOAD_TOO_LARGE, "payload is " + bytes
                    + " bytes as compact JSON; the limit is " + maxPayloadBytes);
        }
        return text;
    }

    private byte[] readCapped(HttpServletRequest request) {
        long declared = request.getContentLengthLong();
        if (declared > maxBodyBytes) {
            throw tooLarge(declared);
        }
        try (InputStream in = request.getInputStream()) {
            // Tomcat's timeout bounds each read; this deadline bounds the whole body, so a client that trickles a
            // byte now and then cannot hold a worker thread for long.
            long deadline = System.nanoTime() + bodyReadTimeout.toNanos();
            byte[] body = new byte[(int) Math.min(maxBodyBytes + 1L, Math.max(declared, 0) + 1)];
            int length = 0;
            while (true) {
                if (length == body.length) {
                    if (length > maxBodyBytes) {
                        throw tooLarge(-1);
                    }
                    body = Arrays.copyOf(body, Math.min(maxBodyBytes + 1, Math.max(length * 2, 1024)));
                }
                int read = in.read(body, length, body.length - length);
                if (read < 0) {
                    return Arrays.copyOf(body, length);
                }
                length += read;
                if (System.nanoTime() - deadline > 0) {
                    throw invalidRequest("the body took longer than " + bodyReadTimeout.toMillis()
                            + " ms to arrive");
                }
            }
        } catch (IOException e) {
            throw invalidRequest("the body could not be read completely");
        }
    }

    /**
     * JSON travels as UTF-8 (RFC 8259 section 8.1). Jackson would guess UTF-16 or UTF-32 from the bytes and skip a
     * byte order mark, so the body is decoded strictly here and handed over as text.
     */
    private static String utf8(byte[] body) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            throw invalidRequest("the body is not valid UTF-8; send JSON as UTF-8");
        }
        if (text.startsWith("\uFEFF")) {
            throw invalidRequest("the body starts with a byte order mark; send JSON without one");
        }
        return text;
    }

    private SchedulerException tooLarge(long declared) {
        return new SchedulerException(ErrorCode.PAYLOAD_TOO_LARGE, "the request body "
                + (declared > 0 ? "is " + declared + " bytes" : "exceeds the limit") + "; the limit is "
                + maxBodyBytes + " bytes");
    }

    static SchedulerException invalidRequest(String detail) {
        return new SchedulerException(ErrorCode.INVALID_REQUEST, detail);
    }

    /**
     * Jackson's message without the parts that name its classes or settings, such as
     * {@code (64, from `StreamReadConstraints.getMaxNestingDepth()`)} or {@code `DeserializationFeature...`}, and
     * without its description of the input source: a problem detail never shows our internals.
     */
    static String withoutInternals(String message) {
        if (message == null) {
            return "malformed JSON";
        }
        String cleaned = message.replaceAll(", from `[^`]*`", "")
                .replaceAll(" \\(bound as `[^`]*`\\)", "")
                .replaceAll(": not allowed as per `[^`]*`", "")
                .replaceAll("`[^`]*`", "a value");
        for (String sourceDescription : new String[] {" (start marker at", "[Source"}) {
            int at = cleaned.indexOf(sourceDescription);
            if (at >= 0) {
                cleaned = cleaned.substring(0, at);
            }
        }
        cleaned = cleaned.strip();
        if (cleaned.isEmpty()) {
            return "malformed JSON";
        }
        return cleaned.length() <= 200 ? cleaned : cleaned.substring(0, 200) + "...";
    }

    private static String position(JacksonException e) {
        return e.getLocation() != null && e.getLocation().getLineNr() > 0
                ? " (at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")" : "";
    }

    private static String describe(JsonNode value) {
        if (value.isString()) {
            return "a string";
        }
        if (value.isNumber()) {
            return "the number " + abbreviate(value.toString());
        }
        return value.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String abbreviate(String text) {
        return abbreviate(text, 64);
    }

    /** {@code text} cut to about {@code max} characters, never between the two halves of a surrogate pair. */
    static String abbreviate(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end) + "...";
    }
}
