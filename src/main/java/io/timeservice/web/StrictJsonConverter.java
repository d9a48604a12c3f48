package io.timeservice.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.AbstractHttpMessageConverter;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * Reads the API's request bodies ({@link JsonRequest}) with one strict mapper: UTF-8 only, duplicate and unknown
 * members refused, bounded nesting, number and name length, nothing after the value, and no coercion of any kind
 * ({@code "5"}, {@code 2.5}, {@code 5.0}, {@code 1e3}, {@code true} and {@code null} are not integers, {@code 7} is
 * not a string). The body is parsed to a tree first, so that a malformed body or a lone surrogate is refused as
 * such whatever its members hold; the tree is then bound, and a binding failure is refused with the code of the
 * member it names ({@link BindingFailures}). The size and time of the body are bounded before this reads it
 * ({@link RequestBodyLimits}).
 */
@Component
class StrictJsonConverter extends AbstractHttpMessageConverter<JsonRequest> {

    /** Longest declared body that is read straight into an array of its length (see {@link #readBody}). */
    static final int EXACT_READ_MAX_BYTES = 8192;

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

    private final JsonMapper mapper;
    private final int maxPayloadBytes;

    StrictJsonConverter(TimeServiceProperties properties) {
        super(MediaType.APPLICATION_JSON);
        int maxBodyBytes = properties.limits().maxBodyBytes();
        this.maxPayloadBytes = properties.limits().maxPayloadBytes();
        this.mapper = strictMapper(maxBodyBytes, maxBodyBytes, MAX_NESTING_DEPTH);
    }

    /**
     * The strict mapper over a parser with these limits: {@code maxDocumentLength} for the whole document,
     * {@code maxStringLength} for any string, {@code maxNestingDepth} levels of arrays and objects.
     */
    static JsonMapper strictMapper(int maxStringLength, long maxDocumentLength, int maxNestingDepth) {
        JsonFactory factory = JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(maxNestingDepth)
                        .maxNumberLength(MAX_NUMBER_LENGTH)
                        // string and document limits equal the body cap, which RequestBodyLimits enforces first;
                        // set anyway so that the parser never relies on Jackson's much larger defaults
                        .maxStringLength(maxStringLength)
                        .maxNameLength(MAX_NAME_LENGTH)
                        .maxDocumentLength(maxDocumentLength)
                        .build())
                .build();
        return JsonMapper.builder(factory)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                // no scalar becomes another: not "5" -> 5, 7 -> "7", true -> 1, 2.5 -> 2 or "" -> null
                .withCoercionConfigDefaults(config -> {
                    config.setAcceptBlankAsEmpty(false);
                    for (CoercionInputShape shape : CoercionInputShape.values()) {
                        config.setCoercion(shape, CoercionAction.Fail);
                    }
                })
                // ... but an integer is a number: a retry multiplier of 2 is 2.0 (no other member is fractional)
                .withCoercionConfig(LogicalType.Float, config -> config.setCoercion(CoercionInputShape.Integer,
                        CoercionAction.TryConvert))
                // keep payload numbers as sent: a double would turn 1e400 into "Infinity" and round long fractions
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .build();
    }

    @Override
    protected boolean supports(Class<?> type) {
        return JsonRequest.class.isAssignableFrom(type);
    }

    @Override
    protected boolean canWrite(MediaType mediaType) {
        return false;
    }

    @Override
    protected JsonRequest readInternal(Class<? extends JsonRequest> type, HttpInputMessage input) throws IOException {
        String text = text(readBody(input));
        JsonNode body = parse(text);
        LoneSurrogates.refuse(body);   // first: later refusals echo names, and a lone surrogate breaks any answer
        if (!body.isObject()) {
            throw invalidRequest("the body must be a JSON object");
        }
        RawPayloads.keep(text, body, mapper);
        try {
            return mapper.treeToValue(body, type);
        } catch (JacksonException e) {
            throw BindingFailures.refusal(e, body);
        }
    }

    /**
     * The body's bytes. With a declared length up to {@link #EXACT_READ_MAX_BYTES} they are read into an array of that
     * length: {@code readAllBytes} would allocate an 8 KB buffer and then copy, for a body of some 60 bytes, and that
     * was a fifth of what {@code POST /timers} allocated. A longer or undeclared length (chunked) is read as it comes,
     * so that no client's declaration makes the service allocate ahead of the bytes; the body limit has been checked
     * on the declared length by the time the stream is opened ({@link RequestBodyLimits}).
     */
    static byte[] readBody(HttpInputMessage input) throws IOException {
        long declared = input.getHeaders().getContentLength();
        InputStream stream = input.getBody();
        if (declared < 0 || declared > EXACT_READ_MAX_BYTES) {
            return stream.readAllBytes();
        }
        byte[] body = new byte[(int) declared];
        int read = stream.readNBytes(body, 0, body.length);
        return read == body.length ? body : Arrays.copyOf(body, read);
    }

    /**
     * Binds one member of a body already read (an operation of a batch) as strictly as a whole body: the same
     * refusals with the same codes.
     */
    <T> T bindMember(JsonNode member, Class<T> type) {
        if (!member.isObject()) {
            throw invalidRequest("must be a JSON object");
        }
        try {
            return mapper.treeToValue(member, type);
        } catch (JacksonException e) {
            throw BindingFailures.refusal(e, member);
        }
    }

    @Override
    protected void writeInternal(JsonRequest body, HttpOutputMessage output) {
        throw new UnsupportedOperationException("request bodies are only read");
    }

    /**
     * The payload as compact JSON text, or {@code null} for an absent or null payload: as the client sent it, without
     * the whitespace outside its strings, when a body's reader kept its text ({@link RawPayloads}).
     */
    String payloadText(JsonNode payload) {
        if (payload == null || payload.isNull()) {
            return null;
        }
        String raw = RawPayloads.text(payload);
        String text = raw != null ? raw : mapper.writeValueAsString(payload);
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxPayloadBytes) {
            throw new ProblemException(ErrorCode.PAYLOAD_TOO_LARGE, "payload is " + bytes
                    + " bytes as compact JSON; the limit is " + maxPayloadBytes);
        }
        return text;
    }

    /**
     * JSON travels as UTF-8 (RFC 8259 section 8.1). Jackson would guess UTF-16 or UTF-32 from the bytes and skip a
     * byte order mark, so it is given text: ASCII bodies (most) as they are, any other through a strict UTF-8
     * decoder. Always text, because Jackson's byte and character parsers word some refusals differently (a lone
     * surrogate escaped in a member name, for one), and the problems name what {@link LoneSurrogates} finds.
     */
    private static String text(byte[] bytes) {
        if (bytes.length >= 3 && bytes[0] == (byte) 0xEF && bytes[1] == (byte) 0xBB && bytes[2] == (byte) 0xBF) {
            throw invalidRequest("the body starts with a byte order mark; send JSON without one");
        }
        return isAscii(bytes) ? new String(bytes, StandardCharsets.ISO_8859_1) : strictUtf8(bytes);
    }

    private JsonNode parse(String text) {
        try {
            JsonNode tree = mapper.readTree(text);
            return tree == null ? mapper.missingNode() : tree;
        } catch (StreamConstraintsException e) {
            throw invalidRequest("the body is not valid JSON: " + withoutInternals(e.getOriginalMessage())
                    + " (parsing limits: " + MAX_NESTING_DEPTH + " levels of nesting, " + MAX_NUMBER_LENGTH
                    + " characters per number, " + MAX_NAME_LENGTH + " per member name)");
        } catch (JacksonException e) {
            throw invalidRequest("the body is not valid JSON: " + withoutInternals(e.getOriginalMessage())
                    + position(e));
        }
    }

    private static boolean isAscii(byte[] bytes) {
        for (byte b : bytes) {
            if (b < 0) {
                return false;
            }
        }
        return true;
    }

    private static String strictUtf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw invalidRequest("the body is not valid UTF-8; send JSON as UTF-8");
        }
    }

    static ProblemException invalidRequest(String detail) {
        return new ProblemException(ErrorCode.INVALID_REQUEST, detail);
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
}
