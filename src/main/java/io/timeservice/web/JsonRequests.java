package io.timeservice.web;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
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

    static final int MAX_NESTING_DEPTH = 64;
    /**
     * Longest number literal parsed (Jackson's default). Long enough that any integer a client may plausibly send is
     * judged by its member's rule ({@code invalid_delay}, {@code invalid_advance}, ...) rather than refused as
     * malformed, short enough that parsing it costs nothing.
     */
    static final int MAX_NUMBER_LENGTH = 1000;
    static final int MAX_NAME_LENGTH = 1024;

    private final JsonMapper strictMapper;
    private final int maxBodyBytes;
    private final int maxPayloadBytes;

    JsonRequests(TimeServiceProperties properties) {
        this.maxBodyBytes = properties.limits().maxBodyBytes();
        this.maxPayloadBytes = properties.limits().maxPayloadBytes();
        JsonFactory factory = JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .maxNumberLength(MAX_NUMBER_LENGTH)
                        .maxStringLength(maxBodyBytes)
                        .maxNameLength(MAX_NAME_LENGTH)
                        .maxDocumentLength(maxBodyBytes)
                        .build())
                .build();
        this.strictMapper = JsonMapper.builder(factory)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
    }

    /** Reads the body as one JSON object whose member names are all in {@code allowed}. */
    ObjectNode readObject(HttpServletRequest request, Set<String> allowed) {
        byte[] body = readCapped(request);
        JsonNode tree;
        try {
            tree = strictMapper.readTree(body);
        } catch (StreamConstraintsException e) {
            throw invalidRequest("the body exceeds a parsing limit: at most " + MAX_NESTING_DEPTH
                    + " levels of nesting, " + MAX_NUMBER_LENGTH + " characters per number and " + MAX_NAME_LENGTH
                    + " per member name");
        } catch (JacksonException e) {
            throw invalidRequest("the body is not valid JSON" + position(e) + ": "
                    + plainMessage(e.getOriginalMessage()));
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
            byte[] body = in.readNBytes(maxBodyBytes + 1);
            if (body.length > maxBodyBytes) {
                throw tooLarge(-1);
            }
            return body;
        } catch (IOException e) {
            throw invalidRequest("the body could not be read completely");
        }
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
     * Jackson's message without the parts that name its own classes and settings (which it quotes in backticks) or
     * describe its input source: a client gets the problem, never our internals.
     */
    static String plainMessage(String message) {
        String text = message == null ? "" : message;
        int source = text.indexOf(" (start marker at");
        if (source >= 0) {
            text = text.substring(0, source);
        }
        int internal = text.indexOf('`');
        if (internal >= 0) {
            int clause = text.lastIndexOf(':', internal);
            text = text.substring(0, clause >= 0 ? clause : internal);
        }
        int location = text.indexOf("[Source");
        if (location >= 0) {
            text = text.substring(0, location);
        }
        text = text.strip();
        if (text.isEmpty()) {
            return "malformed JSON";
        }
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }

    private static String position(JacksonException e) {
        return e.getLocation() != null && e.getLocation().getLineNr() > 0
                ? " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() : "";
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
        return text.length() <= 64 ? text : text.substring(0, 64) + "...";
    }
}
