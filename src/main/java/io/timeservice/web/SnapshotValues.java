package io.timeservice.web;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.RECORD_COMPONENT;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.util.List;
import java.util.function.Function;

import io.timeservice.model.ClockRate;
import io.timeservice.model.FlowRate;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.SnapshotRules;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.JacksonIOException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.module.SimpleModule;

/**
 * The values of a snapshot document as its items take them ({@link SnapshotItems}), as strictly as every other body
 * and in the document's own words: an integer is a JSON integer within its {@link Range}, a string holds no lone
 * surrogate and, where the member names its choices ({@link OneOf}), is one of them; no member takes JSON null but a
 * payload and a schedule's {@code next}. Each deserializer refuses without a pointer; whoever binds the item adds
 * the item's pointer and the path Jackson reports ({@link #refusal}).
 */
final class SnapshotValues {

    /** The range of an integer member; without one, any integer a long holds. */
    @Retention(RUNTIME)
    @Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
    @interface Range {
        long min();

        long max();
    }

    /** The strings a member may hold. */
    @Retention(RUNTIME)
    @Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
    @interface OneOf {
        String[] value();
    }

    private SnapshotValues() {
    }

    /** The deserializers of the document's scalar types. */
    static SimpleModule module() {
        return new SimpleModule("snapshot-values")
                .addDeserializer(Long.class, new IntegerValue(Long.MIN_VALUE, Long.MAX_VALUE))
                .addDeserializer(String.class, new StringValue(null))
                .addDeserializer(Boolean.class, new BooleanValue())
                .addDeserializer(Double.class, new NumberValue())
                .addDeserializer(ClockRate.class, new RateValue());
    }

    /**
     * The refusal of the item at {@code item} for {@code failure}: a refusal with a pointer as it is, one without at
     * the member Jackson's path names.
     */
    static ProblemException refusal(JacksonException failure, String item) {
        StringBuilder at = new StringBuilder(item);
        for (JacksonException.Reference step : failure.getPath()) {
            String name = step.getPropertyName();
            at.append('/').append(name != null ? name.replace("~", "~0").replace("/", "~1") : step.getIndex());
        }
        for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof ProblemException refused) {
                return refused.member() != null ? refused : SnapshotRules.refused(at.toString(), refused.getMessage());
            }
        }
        return SnapshotRules.refused(at.toString(), "not valid JSON: "
                + StrictJsonConverter.withoutInternals(failure.getOriginalMessage()));
    }

    /** A refusal of the value being read, without its pointer. */
    static ProblemException refused(String message) {
        return new ProblemException(ErrorCode.INVALID_SNAPSHOT, message);
    }

    /** The integer the parser stands on, from {@code min} to {@code max}. */
    static long integer(JsonParser parser, long min, long max) {
        if (!parser.hasToken(JsonToken.VALUE_NUMBER_INT)) {
            throw refused("must be an integer");
        }
        long value;
        try {
            value = parser.getLongValue();
        } catch (JacksonException outOfRange) {
            throw refused("must be an integer between " + min + " and " + max);
        }
        if (value < min || value > max) {
            throw refused("must be between " + min + " and " + max + ": " + value);
        }
        return value;
    }

    /**
     * A value that is absent (null) or refused as JSON null with {@code "must be " + expected}; malformed text inside
     * it is refused as such.
     */
    private abstract static class Strict<T> extends ValueDeserializer<T> {
        private final String expected;

        Strict(String expected) {
            this.expected = "must be " + expected;
        }

        /** Refuses any value but one that starts with {@code token}. */
        void require(JsonParser parser, JsonToken token) {
            if (!parser.hasToken(token)) {
                throw refused(expected);
            }
        }

        abstract T value(JsonParser parser, DeserializationContext context);

        @Override
        public T deserialize(JsonParser parser, DeserializationContext context) {
            try {
                return value(parser, context);
            } catch (StreamReadException malformed) {
                throw refused("not valid JSON: " + StrictJsonConverter.withoutInternals(malformed.getOriginalMessage()));
            }
        }

        @Override
        public T getNullValue(DeserializationContext context) {
            throw refused(expected);
        }

        @Override
        public Object getAbsentValue(DeserializationContext context) {
            return null;
        }
    }

    static final class IntegerValue extends Strict<Long> {
        private final long min;
        private final long max;

        IntegerValue(long min, long max) {
            super("an integer");
            this.min = min;
            this.max = max;
        }

        @Override
        public ValueDeserializer<?> createContextual(DeserializationContext context, BeanProperty property) {
            Range range = property == null ? null : property.getAnnotation(Range.class);
            return range == null ? this : new IntegerValue(range.min(), range.max());
        }

        @Override
        Long value(JsonParser parser, DeserializationContext context) {
            return integer(parser, min, max);
        }
    }

    static final class StringValue extends Strict<String> {
        private final List<String> allowed;

        StringValue(List<String> allowed) {
            super("a string");
            this.allowed = allowed;
        }

        @Override
        public ValueDeserializer<?> createContextual(DeserializationContext context, BeanProperty property) {
            OneOf choices = property == null ? null : property.getAnnotation(OneOf.class);
            return choices == null ? this : new StringValue(List.of(choices.value()));
        }

        @Override
        String value(JsonParser parser, DeserializationContext context) {
            if (!parser.hasToken(JsonToken.VALUE_STRING)) {
                throw refused("must be a string");
            }
            String value = parser.getString();
            if (LoneSurrogates.indexOfLone(value) >= 0) {
                throw refused("holds a lone surrogate");
            }
            if (allowed != null && !allowed.contains(value)) {
                throw refused("must be one of " + String.join(", ", allowed) + ", got \""
                        + LoneSurrogates.abbreviate(value, 32) + "\"");
            }
            return value;
        }
    }

    static final class BooleanValue extends Strict<Boolean> {
        BooleanValue() {
            super("true or false");
        }

        @Override
        Boolean value(JsonParser parser, DeserializationContext context) {
            if (!parser.hasToken(JsonToken.VALUE_TRUE) && !parser.hasToken(JsonToken.VALUE_FALSE)) {
                throw refused("must be true or false");
            }
            return parser.hasToken(JsonToken.VALUE_TRUE);
        }
    }

    static final class NumberValue extends Strict<Double> {
        NumberValue() {
            super("a number");
        }

        @Override
        Double value(JsonParser parser, DeserializationContext context) {
            requireNumber(parser);
            return parser.getDoubleValue();
        }
    }

    /** A scaled clock's rate, exactly as written (at most six decimals). */
    static final class RateValue extends Strict<ClockRate> {
        RateValue() {
            super("a number");
        }

        @Override
        ClockRate value(JsonParser parser, DeserializationContext context) {
            requireNumber(parser);
            try {
                return ClockRate.of(parser.getDecimalValue());
            } catch (ProblemException invalid) {
                throw refused(invalid.getMessage());
            }
        }
    }

    private static void requireNumber(JsonParser parser) {
        if (!parser.hasToken(JsonToken.VALUE_NUMBER_INT) && !parser.hasToken(JsonToken.VALUE_NUMBER_FLOAT)) {
            throw refused("must be a number");
        }
    }

    /** An object or an array (a push target's headers, its secrets), read as its member's type. */
    static final class Nested extends Strict<Object> {
        private final JavaType type;

        Nested() {
            this(null);
        }

        private Nested(JavaType type) {
            super(type != null && type.isCollectionLikeType() ? "a JSON array" : "a JSON object");
            this.type = type;
        }

        @Override
        public ValueDeserializer<?> createContextual(DeserializationContext context, BeanProperty property) {
            return new Nested(property.getType());
        }

        @Override
        Object value(JsonParser parser, DeserializationContext context) {
            require(parser, type.isCollectionLikeType() ? JsonToken.START_ARRAY : JsonToken.START_OBJECT);
            return context.readValue(parser, type);
        }
    }

    /**
     * An object read as {@code item} and turned into what the model takes by {@code check}, which may refuse it: when
     * the object ends, before the next member of the object around it is read.
     */
    private abstract static class Checked<I, T> extends Strict<T> {
        private final Class<I> item;
        private final Function<I, T> check;

        Checked(Class<I> item, Function<I, T> check) {
            super("a JSON object");
            this.item = item;
            this.check = check;
        }

        @Override
        T value(JsonParser parser, DeserializationContext context) {
            require(parser, JsonToken.START_OBJECT);
            I read = context.readValue(parser, item);
            try {
                return check.apply(read);
            } catch (ProblemException invalid) {
                throw refused(invalid.getMessage());
            }
        }
    }

    /** A queue clock's retry policy. */
    static final class RetryValue extends Checked<SnapshotItems.RetryItem, RetryPolicy> {
        RetryValue() {
            super(SnapshotItems.RetryItem.class, SnapshotItems.RetryItem::policy);
        }
    }

    /** A push clock's target. */
    static final class PushValue extends Checked<SnapshotItems.PushItem, PushTarget> {
        PushValue() {
            super(SnapshotItems.PushItem.class, SnapshotItems.PushItem::target);
        }
    }

    /** A clock's per-key flow control (issue 44). */
    static final class FlowValue extends Checked<SnapshotItems.FlowItem, SnapshotItems.FlowItem> {
        FlowValue() {
            super(SnapshotItems.FlowItem.class, item -> item);
        }
    }

    /** A rate of flow control: limit and period. */
    static final class FlowRateValue extends Checked<SnapshotItems.RateItem, FlowRate> {
        FlowRateValue() {
            super(SnapshotItems.RateItem.class, SnapshotItems.RateItem::rate);
        }
    }

    /** The value of a member an item does not know: refused unread. */
    @JsonDeserialize(using = Unknown.Refused.class)
    static final class Unknown {
        private Unknown() {
        }

        static final class Refused extends ValueDeserializer<Unknown> {
            @Override
            public Unknown deserialize(JsonParser parser, DeserializationContext context) {
                throw refused("unknown member");
            }

            @Override
            public Unknown getNullValue(DeserializationContext context) {
                throw refused("unknown member");
            }
        }
    }

    /** A schedule's next occurrence: an integer, or null once none is left; absent, the member is missing. */
    static final class NextValue extends Strict<SnapshotItems.Next> {
        NextValue() {
            super("an integer");
        }

        @Override
        SnapshotItems.Next value(JsonParser parser, DeserializationContext context) {
            return new SnapshotItems.Next(integer(parser, Long.MIN_VALUE, Long.MAX_VALUE));
        }

        @Override
        public SnapshotItems.Next getNullValue(DeserializationContext context) {
            return new SnapshotItems.Next(null);
        }
    }

    /**
     * A payload: read as a tree with the strict mapper and checked for lone surrogates, then kept as its text as sent
     * ({@link RawPayloads}), compact, within {@code max-payload-bytes}; a null payload as null.
     */
    static final class Payload extends ValueDeserializer<String> {

        @Override
        public String deserialize(JsonParser parser, DeserializationContext context) {
            SnapshotParser document = (SnapshotParser) parser;
            document.enterPayload();
            try {
                document.text.pin(parser.currentTokenLocation().getCharOffset());
                JsonNode tree = context.readTree(parser);
                LoneSurrogates.refuse(tree);
                String sent = document.text.text(parser.currentLocation().getCharOffset());
                return document.json.payloadText(RawPayloads.raw(RawPayloads.compact(sent, 0, sent.length())));
            } catch (JacksonIOException unreadable) {
                throw unreadable;
            } catch (JacksonException malformed) {
                throw refused("not valid JSON: " + StrictJsonConverter.withoutInternals(malformed.getOriginalMessage()));
            } catch (ProblemException invalid) {
                throw refused(invalid.getMessage());
            } finally {
                document.leavePayload();
            }
        }

        @Override
        public String getNullValue(DeserializationContext context) {
            return null;
        }
    }
}
