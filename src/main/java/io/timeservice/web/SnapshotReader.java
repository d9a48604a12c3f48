package io.timeservice.web;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.CronParser;
import io.timeservice.model.Delivery;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowRate;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleRules;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.SnapshotRules;
import io.timeservice.model.Timer;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.JacksonIOException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a snapshot document ({@code PUT /clocks/{clock}/snapshot}) with Jackson's streaming parser, straight from the
 * request's stream into a {@link ClockSnapshot}: the document is never held as bytes or text whole, only what it
 * holds. As strict as every other body ({@link StrictJsonConverter}): UTF-8, no unknown or repeated members, no
 * coercion (an integer member takes a JSON integer in range, nothing else), each payload at most
 * {@code max-payload-bytes} as compact JSON. Then {@link SnapshotRules} judges the values. Every refusal of the
 * document is {@code invalid_snapshot} with the JSON pointer of the member it refuses: the first malformed member in
 * document order, else the first that breaks a rule ({@link SnapshotRules#check}).
 *
 * <p>Thread-safe: each read has its own parser and state.
 */
@Component
class SnapshotReader {

    /** Levels of a document around a payload: the document, the timers array, the timer. */
    private static final int DOCUMENT_LEVELS = 3;

    private final JsonMapper mapper;
    /** Reads a payload's tree where the parser stands; the document goes on after it. */
    private final ObjectReader payloads;
    private final StrictJsonConverter json;
    private final CronParser cronParser;

    SnapshotReader(TimeServiceProperties properties, StrictJsonConverter json, CronParser cronParser) {
        TimeServiceProperties.Limits limits = properties.limits();
        this.mapper = StrictJsonConverter.strictMapper(limits.maxBodyBytes(), limits.maxSnapshotBytes().toBytes(),
                StrictJsonConverter.MAX_NESTING_DEPTH + DOCUMENT_LEVELS);
        this.payloads = mapper.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.json = json;
        this.cronParser = cronParser;
    }

    /**
     * The snapshot {@code body} holds, checked by {@link SnapshotRules}.
     *
     * @throws ProblemException {@code invalid_snapshot} naming the first bad member; {@code invalid_request} for a
     *                            body that is not UTF-8 or could not be read; {@code payload_too_large} past the limit
     */
    ClockSnapshot read(InputStream body) {
        RecordingReader text = new RecordingReader(new InputStreamReader(body, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)));
        Document document;
        // the document's repeated members are refused by Members (naming them); a payload's by the tree reader
        try (JsonParser parser = payloads.without(StreamReadFeature.STRICT_DUPLICATE_DETECTION).createParser(text)) {
            document = new Document(new Cursor(parser, text));
            document.read();
        } catch (JacksonIOException unreadable) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, unreadable.getCause()
                    instanceof CharacterCodingException ? "the body is not valid UTF-8; send JSON as UTF-8"
                    : "the body could not be read completely");
        }
        ClockSnapshot snapshot = document.snapshot();
        SnapshotRules.check(snapshot, cronParser);
        document.requireStates(snapshot);
        return snapshot;
    }

    /** The parser, the text it reads, and the token an array read ahead for its element. */
    private static final class Cursor {
        final JsonParser parser;
        final RecordingReader text;
        /** Where the parser is, for a refusal of malformed JSON. */
        String at = "";
        private JsonToken pending;

        Cursor(JsonParser parser, RecordingReader text) {
            this.parser = parser;
            this.text = text;
        }

        JsonToken next() {
            JsonToken token = pending != null ? pending : parser.nextToken();
            pending = null;
            return token;
        }
    }

    /** One document being read. */
    private final class Document {
        private final Cursor cursor;
        private boolean formatSeen;
        private Clock clock;
        private final List<Timer> timers = new ArrayList<>();
        private final List<Delivery> deliveries = new ArrayList<>();
        private final List<ReadSchedule> schedules = new ArrayList<>();
        private long largestSequence;

        Document(Cursor cursor) {
            this.cursor = cursor;
        }

        void read() {
            try {
                Members root = new Members(cursor, "");
                root.object();
                root.each(this::member);
                if (cursor.next() != null) {
                    throw SnapshotRules.refused("", "nothing may follow the snapshot's object");
                }
            } catch (JacksonIOException unreadable) {
                throw unreadable;
            } catch (JacksonException malformed) {
                throw SnapshotRules.refused(cursor.at, "not valid JSON: "
                        + StrictJsonConverter.withoutInternals(malformed.getOriginalMessage()));
            }
        }

        private void member(Members root, String name, String at) {
            switch (name) {
                case "format" -> {
                    long format = root.integer(at);
                    if (format != ClockSnapshot.FORMAT) {
                        throw SnapshotRules.refused(at, "this service reads snapshot format " + ClockSnapshot.FORMAT
                                + ", not " + format);
                    }
                    formatSeen = true;
                }
                case "clock" -> clock = readClock(root.child(at));
                case "timers" -> root.child(at).array(i -> timers.add(readTimer(root.child(at + "/" + i))));
                case "deliveries" -> root.child(at).array(i -> deliveries.add(readDelivery(root.child(at + "/" + i))));
                case "schedules" -> root.child(at).array(i -> schedules.add(readSchedule(root.child(at + "/" + i))));
                default -> throw Members.unknown(at);
            }
        }

        private Clock readClock(Members members) {
            members.object();
            Clock read = new Clock();
            members.each((m, name, at) -> {
                switch (name) {
                    case "name" -> read.name = m.string(at);
                    case "mode" -> read.mode = m.choice(at, "virtual", "system", "scaled");
                    case "rate" -> read.rate = m.rate(at);
                    case "delivery" -> read.delivery = m.choice(at, "response", "queue", "push");
                    case "retry" -> read.retry = readRetry(m.child(at));
                    case "push" -> read.push = readPush(m.child(at));
                    case "flow" -> readFlow(m.child(at), read);
                    case "clockConcurrency" -> read.clockConcurrency = m.integer(at);
                    case "clockRate" -> read.clockRate = readRate(m.child(at));
                    case "now" -> read.now = m.integer(at);
                    case "nextSequence" -> read.nextSequence = m.integer(at);
                    default -> throw Members.unknown(at);
                }
            });
            try {
                read.settings = ClockSettings.of(read.mode == null ? null : ClockSettings.Mode.valueOf(upper(read.mode)),
                        read.delivery == null ? null : ClockSettings.DeliveryMode.valueOf(upper(read.delivery)),
                        read.retry, read.rate, read.push).withFlow(read.flow());
            } catch (ProblemException invalid) {
                // mode, delivery and rate refused together (ClockSettings' rules): the clock is the member named
                throw SnapshotRules.refused(members.pointer, invalid.getMessage());
            }
            return read;
        }

        /** A clock's per-key flow control: {@code concurrency}, {@code rate}, {@code burst}, each optional. */
        private void readFlow(Members members, Clock read) {
            members.object();
            read.flowSet = true;
            members.each((m, name, at) -> {
                switch (name) {
                    case "concurrency" -> read.concurrency = m.integer(at);
                    case "rate" -> read.keyRate = readRate(m.child(at));
                    case "burst" -> read.burst = m.integer(at);
                    default -> throw Members.unknown(at);
                }
            });
        }

        /** A rate: {@code limit} per {@code period} ms, both required. */
        private FlowRate readRate(Members members) {
            members.object();
            Long[] value = new Long[2];
            members.each((m, name, at) -> {
                switch (name) {
                    case "limit" -> value[0] = m.integer(at);
                    case "period" -> value[1] = m.integer(at);
                    default -> throw Members.unknown(at);
                }
            });
            members.require(value[0] != null, "limit");
            members.require(value[1] != null, "period");
            return new FlowRate(value[0], value[1]);
        }

        /**
         * A push clock's target. A saved document shows {@code secretsCount} in place of the write-only secrets, so
         * it is taken and ignored: the clock loads unsigned unless the document is given {@code secrets}.
         */
        private PushTarget readPush(Members members) {
            members.object();
            Push read = new Push();
            members.each((m, name, at) -> {
                switch (name) {
                    case "url" -> read.url = m.string(at);
                    case "timeout" -> read.timeout = m.integer(at);
                    case "concurrency" -> read.concurrency = m.integer(at, Integer.MIN_VALUE, Integer.MAX_VALUE);
                    case "headers" -> read.headers = m.child(at).strings();
                    case "secrets" -> read.secrets = m.child(at).stringList();
                    case "secretsCount" -> m.integer(at, 0, PushTarget.MAX_SECRETS);
                    default -> throw Members.unknown(at);
                }
            });
            try {
                return new PushTarget(read.url, read.timeout != null ? read.timeout : PushTarget.DEFAULT_TIMEOUT_MILLIS,
                        read.concurrency != null ? read.concurrency.intValue() : PushTarget.DEFAULT_CONCURRENCY,
                        read.headers, read.secrets);
            } catch (ProblemException invalid) {
                throw SnapshotRules.refused(members.pointer, invalid.getMessage());
            }
        }

        private RetryPolicy readRetry(Members members) {
            members.object();
            RetryPolicy d = RetryPolicy.DEFAULT;
            long[] whole = {d.maxAttempts(), d.initialBackoffMillis(), d.maxBackoffMillis()};
            double[] fraction = {d.multiplier(), d.jitter()};
            members.each((m, name, at) -> {
                switch (name) {
                    case "maxAttempts" -> whole[0] = m.integer(at, Integer.MIN_VALUE, Integer.MAX_VALUE);
                    case "initialBackoff" -> whole[1] = m.integer(at);
                    case "maxBackoff" -> whole[2] = m.integer(at);
                    case "multiplier" -> fraction[0] = m.number(at);
                    case "jitter" -> fraction[1] = m.number(at);
                    default -> throw Members.unknown(at);
                }
            });
            try {
                return new RetryPolicy((int) whole[0], whole[1], fraction[0], whole[2], fraction[1]);
            } catch (ProblemException invalid) {
                throw SnapshotRules.refused(members.pointer, invalid.getMessage());
            }
        }

        private Timer readTimer(Members members) {
            members.object();
            Fired fired = new Fired();
            Long[] value = new Long[2];      // version, createdAt
            members.each((m, name, at) -> {
                if (!fired.read(m, name, at)) {
                    switch (name) {
                        case "version" -> value[0] = m.integer(at, 1, Timer.MAX_VERSION);
                        case "createdAt" -> value[1] = m.integer(at);
                        default -> throw Members.unknown(at);
                    }
                }
            });
            fired.require(members);
            return new Timer(fired.id, fired.fireTime, fired.priority(), fired.sequence, or(value[0], 1),
                    or(value[1], 0), fired.payload, fired.schedule, fired.key);
        }

        private Delivery readDelivery(Members members) {
            members.object();
            Fired fired = new Fired();
            String[] text = new String[2];   // state, deadReason
            Long[] value = new Long[3];      // attempt, readyAt, retryAt
            members.each((m, name, at) -> {
                if (!fired.read(m, name, at)) {
                    switch (name) {
                        case "attempt" -> value[0] = m.integer(at, Integer.MIN_VALUE, Integer.MAX_VALUE);
                        case "state" -> text[0] = m.choice(at, "ready", "in_flight", "waiting", "dead");
                        case "readyAt" -> value[1] = m.integer(at);
                        case "retryAt" -> value[2] = m.integer(at, 1, Long.MAX_VALUE);
                        case "deadReason" -> text[1] = m.string(at);
                        default -> throw Members.unknown(at);
                    }
                }
            });
            fired.require(members);
            members.require(text[0] != null, "state");
            return new Delivery(fired.id, fired.fireTime, fired.priority(), fired.sequence, fired.payload,
                    or(value[0], 1).intValue(), Delivery.State.valueOf(upper(text[0])), null, 0, or(value[2], 0),
                    or(value[1], fired.fireTime), text[1], fired.schedule, fired.key);
        }

        /** The members a timer and a delivery share: its id, when it is due, its priority, sequence and payload. */
        private final class Fired {
            String id;
            Long fireTime;
            Long priority;
            Long sequence;
            String payload;
            String schedule;
            String key;

            /** Reads the member {@code name} if it is one of these; false if it is not. */
            boolean read(Members m, String name, String at) {
                switch (name) {
                    case "id" -> id = m.string(at);
                    case "fireTime" -> fireTime = m.integer(at);
                    case "priority" -> priority = m.integer(at, Integer.MIN_VALUE, Integer.MAX_VALUE);
                    case "sequence" -> sequence = m.integer(at);
                    case "payload" -> payload = payload(m, at);
                    case "schedule" -> schedule = m.string(at);
                    case "key" -> key = m.string(at);
                    default -> {
                        return false;
                    }
                }
                return true;
            }

            void require(Members members) {
                members.require(id != null, "id");
                members.require(fireTime != null, "fireTime");
                members.require(sequence != null, "sequence");
                largestSequence = Math.max(largestSequence, sequence);
            }

            int priority() {
                return or(priority, 0).intValue();
            }
        }

        /**
         * A schedule: its spec as {@code PUT /clocks/{clock}/schedules/{id}} takes it, then what firing has done.
         * {@code id} and {@code next} (null once none is left) are required; {@code state} is read and checked
         * against the rest after the rules ({@link #requireStates}).
         */
        private ReadSchedule readSchedule(Members members) {
            members.object();
            ReadSchedule read = new ReadSchedule(members.pointer);
            members.each((m, name, at) -> {
                switch (name) {
                    case "id" -> read.id = m.string(at);
                    case "cron" -> read.cron = m.string(at);
                    case "every" -> read.every = m.integer(at);
                    case "zone" -> read.zone = m.string(at);
                    case "start" -> read.start = m.integer(at);
                    case "end" -> read.end = m.integer(at);
                    case "limit" -> read.limit = m.integer(at);
                    case "priority" -> read.priority = m.integer(at, Integer.MIN_VALUE, Integer.MAX_VALUE);
                    case "payload" -> read.payload = payload(m, at);
                    case "catchUp" -> read.catchUp = m.choice(at, "all", "latest", "none");
                    case "paused" -> read.paused = m.bool(at);
                    case "next" -> {
                        read.next = m.nullableInteger(at);
                        read.nextSeen = true;
                    }
                    case "fired" -> read.fired = m.integer(at);
                    case "skipped" -> read.skipped = m.integer(at);
                    case "triggered" -> read.triggered = m.integer(at);
                    case "taken" -> read.taken = m.integer(at);
                    case "state" -> read.state = m.choice(at, "active", "paused", "done");
                    case "version" -> read.version = m.integer(at);
                    default -> throw Members.unknown(at);
                }
            });
            members.require(read.id != null, "id");
            members.require(read.nextSeen, "next");
            return read;
        }

        /** A schedule's {@code state}, where the document gives one, must be what its next and paused make. */
        void requireStates(ClockSnapshot snapshot) {
            for (int i = 0; i < schedules.size(); i++) {
                String given = schedules.get(i).state;
                String actual = snapshot.schedules().get(i).state().wire();
                if (given != null && !given.equals(actual)) {
                    throw SnapshotRules.refused(schedules.get(i).pointer + "/state", "state " + given + " does not"
                            + " match next and paused, which make it " + actual);
                }
            }
        }

        private String payload(Members members, String at) {
            try {
                return json.payloadText(members.payload());
            } catch (ProblemException invalid) {
                throw SnapshotRules.refused(at, invalid.getMessage());
            }
        }

        ClockSnapshot snapshot() {
            if (!formatSeen) {
                throw SnapshotRules.refused("/format", "a snapshot names its format: \"format\": "
                        + ClockSnapshot.FORMAT);
            }
            if (clock == null) {
                throw SnapshotRules.refused("/clock", "a snapshot holds its clock: \"clock\": {...}");
            }
            long next = clock.nextSequence != null ? clock.nextSequence : largestSequence + 1;
            long now = clock.now == null ? 0 : clock.now;
            List<Schedule> read = new ArrayList<>(schedules.size());
            for (ReadSchedule schedule : schedules) {
                read.add(schedule.schedule(now));
            }
            return new ClockSnapshot(clock.name, clock.settings, now, next, timers, read, deliveries);
        }
    }

    /** A schedule's members as read, and where it is. */
    private static final class ReadSchedule {
        final String pointer;
        String id;
        String cron;
        Long every;
        String zone;
        Long start;
        Long end;
        Long limit;
        Long priority;
        String payload;
        String catchUp;
        boolean paused;
        Long next;
        boolean nextSeen;
        Long fired;
        Long skipped;
        Long triggered;
        Long taken;
        String state;
        Long version;

        ReadSchedule(String pointer) {
            this.pointer = pointer;
        }

        /** The schedule, an interval's implied start resolved against the clock's {@code now} as a put does. */
        Schedule schedule(long now) {
            ScheduleSpec spec = ScheduleRules.resolveSchedule(new ScheduleSpec(cron, every, zone, start, end, limit,
                    or(priority, 0).intValue(), payload, catchUp == null ? ScheduleSpec.CatchUp.ALL
                    : ScheduleSpec.CatchUp.ofWire(catchUp), paused), now);
            return new Schedule(id, spec, next, or(fired, 0), or(skipped, 0), or(triggered, 0),
                    or(taken, Long.MIN_VALUE), or(version, 1));
        }
    }

    /** A push target's members as read. */
    private static final class Push {
        String url;
        Long timeout;
        Long concurrency;
        Map<String, String> headers;
        List<String> secrets;
    }

    /** The clock's members as read. */
    private static final class Clock {
        PushTarget push;
        boolean flowSet;
        Long concurrency;
        FlowRate keyRate;
        Long burst;
        Long clockConcurrency;
        FlowRate clockRate;
        String name;
        String mode;
        String delivery;
        ClockRate rate;
        RetryPolicy retry;
        Long now;
        Long nextSequence;
        ClockSettings settings;

        /** The flow control read, or null; a count beyond an int is refused by the rules as out of range. */
        FlowLimits flow() {
            if (!flowSet && clockConcurrency == null && clockRate == null) {
                return null;
            }
            return new FlowLimits(narrow(concurrency), keyRate, narrow(burst), narrow(clockConcurrency), clockRate);
        }

        private static Integer narrow(Long value) {
            return value == null ? null : (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, value));
        }
    }

    private static Long or(Long value, long absent) {
        return value != null ? value : absent;
    }

    private static String upper(String wire) {
        return wire.toUpperCase(Locale.ROOT);
    }

    /** One member of an object: the reader of its siblings, its name and its JSON pointer. */
    @FunctionalInterface
    private interface Member {
        void read(Members members, String name, String pointer);
    }

    /** The object or array at {@code pointer}, each value read with its JSON pointer. */
    private final class Members {
        final Cursor cursor;
        final String pointer;

        Members(Cursor cursor, String pointer) {
            this.cursor = cursor;
            this.pointer = pointer;
        }

        Members child(String childPointer) {
            return new Members(cursor, childPointer);
        }

        /** The value here must be an object; the parser is then inside it. */
        void object() {
            cursor.at = pointer;
            if (cursor.next() != JsonToken.START_OBJECT) {
                throw SnapshotRules.refused(pointer, "must be a JSON object");
            }
        }

        /** Reads every member with {@code member}, the parser at its value; a repeated name is refused. */
        void each(Member member) {
            Set<String> seen = new HashSet<>();
            JsonToken token;
            while ((token = cursor.next()) == JsonToken.PROPERTY_NAME) {
                String name = cursor.parser.currentName();
                if (LoneSurrogates.indexOfLone(name) >= 0) {
                    throw SnapshotRules.refused(pointer, "a member name holds a lone surrogate");
                }
                String at = pointer + "/" + escaped(name);
                if (!seen.add(name)) {
                    throw SnapshotRules.refused(at, "a member may appear once");
                }
                cursor.at = at;
                member.read(this, name, at);
                cursor.at = pointer;
            }
            if (token != JsonToken.END_OBJECT) {
                throw SnapshotRules.refused(pointer, "must be a JSON object");
            }
        }

        /** The value here must be an array; {@code element} reads each, given its index. */
        void array(IntConsumer element) {
            cursor.at = pointer;
            if (cursor.next() != JsonToken.START_ARRAY) {
                throw SnapshotRules.refused(pointer, "must be a JSON array");
            }
            for (int index = 0; ; index++) {
                JsonToken next = cursor.parser.nextToken();
                if (next == JsonToken.END_ARRAY) {
                    return;
                }
                cursor.pending = next; // the element's reader reads its first token itself
                element.accept(index);
            }
        }

        long integer(String at) {
            return integer(at, Long.MIN_VALUE, Long.MAX_VALUE);
        }

        long integer(String at, long min, long max) {
            if (cursor.next() != JsonToken.VALUE_NUMBER_INT) {
                throw SnapshotRules.refused(at, "must be an integer");
            }
            long value;
            try {
                value = cursor.parser.getLongValue();
            } catch (JacksonException outOfRange) {
                throw SnapshotRules.refused(at, "must be an integer between " + min + " and " + max);
            }
            if (value < min || value > max) {
                throw SnapshotRules.refused(at, "must be between " + min + " and " + max + ": " + value);
            }
            return value;
        }

        /** The object here, each member's value a string (a push target's headers), in document order. */
        Map<String, String> strings() {
            object();
            Map<String, String> values = new LinkedHashMap<>();
            each((m, name, at) -> values.put(name, m.string(at)));
            return values;
        }

        /** The array here, each element a string (a push target's secrets). */
        List<String> stringList() {
            List<String> values = new ArrayList<>();
            array(i -> values.add(child(pointer + "/" + i).string(pointer + "/" + i)));
            return values;
        }

        /** A scaled clock's rate, exactly as written (at most six decimals). */
        ClockRate rate(String at) {
            JsonToken token = cursor.next();
            if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
                throw SnapshotRules.refused(at, "must be a number");
            }
            try {
                return ClockRate.of(cursor.parser.getDecimalValue());
            } catch (ProblemException invalid) {
                throw SnapshotRules.refused(at, invalid.getMessage());
            }
        }

        /** An integer, or null for JSON null. */
        Long nullableInteger(String at) {
            JsonToken token = cursor.next();
            if (token == JsonToken.VALUE_NULL) {
                return null;
            }
            cursor.pending = token;
            return integer(at);
        }

        boolean bool(String at) {
            JsonToken token = cursor.next();
            if (token != JsonToken.VALUE_TRUE && token != JsonToken.VALUE_FALSE) {
                throw SnapshotRules.refused(at, "must be true or false");
            }
            return token == JsonToken.VALUE_TRUE;
        }

        double number(String at) {
            JsonToken token = cursor.next();
            if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
                throw SnapshotRules.refused(at, "must be a number");
            }
            return cursor.parser.getDoubleValue();
        }

        String string(String at) {
            if (cursor.next() != JsonToken.VALUE_STRING) {
                throw SnapshotRules.refused(at, "must be a string");
            }
            String value = cursor.parser.getString();
            if (LoneSurrogates.indexOfLone(value) >= 0) {
                throw SnapshotRules.refused(at, "holds a lone surrogate");
            }
            return value;
        }

        String choice(String at, String... allowed) {
            String value = string(at);
            for (String one : allowed) {
                if (one.equals(value)) {
                    return value;
                }
            }
            throw SnapshotRules.refused(at, "must be one of " + String.join(", ", allowed) + ", got \""
                    + LoneSurrogates.abbreviate(value, 32) + "\"");
        }

        /**
         * The payload here: read as a tree with the strict mapper and checked for lone surrogates, then kept as its
         * text as sent ({@link RawPayloads}); a null payload as null.
         */
        JsonNode payload() {
            cursor.next();
            cursor.text.pin(cursor.parser.currentTokenLocation().getCharOffset());
            JsonNode tree = payloads.readTree(cursor.parser);
            LoneSurrogates.refuse(tree);
            if (tree == null || tree.isNull()) {
                return tree;
            }
            String sent = cursor.text.text(cursor.parser.currentLocation().getCharOffset());
            return RawPayloads.raw(RawPayloads.compact(sent, 0, sent.length()));
        }

        void require(boolean present, String member) {
            if (!present) {
                throw SnapshotRules.refused(pointer + "/" + member, "member " + member + " is required");
            }
        }

        static ProblemException unknown(String at) {
            return SnapshotRules.refused(at, "unknown member");
        }
    }

    /** A member name as RFC 6901 writes it in a pointer. */
    private static String escaped(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }
}
