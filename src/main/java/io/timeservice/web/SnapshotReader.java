package io.timeservice.web;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.CronParser;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Reservation;
import io.timeservice.model.Schedule;
import io.timeservice.model.SnapshotRules;
import io.timeservice.model.Timer;
import io.timeservice.web.SnapshotItems.ClockItem;
import io.timeservice.web.SnapshotItems.DeliveryItem;
import io.timeservice.web.SnapshotItems.ReservationItem;
import io.timeservice.web.SnapshotItems.ScheduleItem;
import io.timeservice.web.SnapshotItems.TimerItem;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.JacksonIOException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectReader;

/**
 * Reads a snapshot document ({@code PUT /clocks/{clock}/snapshot}) straight from the request's stream into a
 * {@link ClockSnapshot}: Jackson's streaming parser walks the document and its arrays, and Jackson binds each item
 * (the clock, each timer, delivery and schedule) into a record of {@link SnapshotItems}, so the document is never held
 * as bytes, text or tree whole, only what it holds. As strict as every other body ({@link StrictJsonConverter}):
 * UTF-8, no unknown or repeated members ({@link SnapshotParser}), no coercion (an integer member takes a JSON integer
 * in range, nothing else: {@link SnapshotValues}), each payload at most {@code max-payload-bytes} as compact JSON.
 * Then {@link SnapshotRules} judges the values. Every refusal of the document is {@code invalid_snapshot} with the
 * JSON pointer of the member it refuses: the first malformed member in document order, else the first that breaks a
 * rule ({@link SnapshotRules#check}). {@code SnapshotReaderDifferentialTest} holds it to the hand-written reader it
 * replaced: the same outcome for every document.
 *
 * <p>Thread-safe: each read has its own parser and state.
 */
@Component
class SnapshotReader {

    /** Levels of a document around a payload: the document, the timers array, the timer. */
    private static final int DOCUMENT_LEVELS = 3;

    private final ObjectReader document;
    private final ObjectReader clockItems;
    private final ObjectReader timerItems;
    private final ObjectReader deliveryItems;
    private final ObjectReader scheduleItems;
    private final ObjectReader reservationItems;
    private final StrictJsonConverter json;
    private final CronParser cronParser;

    SnapshotReader(TimeServiceProperties properties, StrictJsonConverter json, CronParser cronParser) {
        TimeServiceProperties.Limits limits = properties.limits();
        // the document's repeated members are refused by SnapshotParser (naming them); a payload's by the tree reader
        this.document = StrictJsonConverter.strictMapper(limits.maxBodyBytes(), limits.maxSnapshotBytes().toBytes(),
                        StrictJsonConverter.MAX_NESTING_DEPTH + DOCUMENT_LEVELS).rebuild()
                .addModule(SnapshotValues.module()).build().reader()
                .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .without(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
        this.clockItems = document.forType(ClockItem.class);
        this.timerItems = document.forType(TimerItem.class);
        this.deliveryItems = document.forType(DeliveryItem.class);
        this.scheduleItems = document.forType(ScheduleItem.class);
        this.reservationItems = document.forType(ReservationItem.class);
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
        Document read = new Document();
        try (SnapshotParser parser = new SnapshotParser(document.createParser(text), text, json)) {
            read.members(parser);
        } catch (JacksonIOException unreadable) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, unreadable.getCause()
                    instanceof CharacterCodingException ? "the body is not valid UTF-8; send JSON as UTF-8"
                    : "the body could not be read completely");
        }
        ClockSnapshot snapshot = read.snapshot();
        SnapshotRules.check(snapshot, cronParser);
        read.requireStates(snapshot);
        return snapshot;
    }

    /** One document being read. */
    private final class Document {
        private boolean formatSeen;
        private ClockItem clock;
        private ClockSettings settings;
        private final List<Timer> timers = new ArrayList<>();
        private final List<Delivery> deliveries = new ArrayList<>();
        private final List<ScheduleItem> schedules = new ArrayList<>();
        private final List<Reservation> reservations = new ArrayList<>();
        private long largestSequence;

        void members(SnapshotParser parser) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw SnapshotRules.refused("", "must be a JSON object");
            }
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String at = "/" + parser.currentName().replace("~", "~0").replace("/", "~1");
                switch (parser.currentName()) {
                    case "format" -> format(parser, at);
                    case "clock" -> {
                        parser.nextToken();
                        clock = item(parser, clockItems, at);
                        settings = clock.settings(at);
                    }
                    case "timers" -> array(parser, at, item -> {
                        Timer timer = this.<TimerItem>item(parser, timerItems, item).timer(item);
                        largestSequence = Math.max(largestSequence, timer.sequence());
                        timers.add(timer);
                    });
                    case "deliveries" -> array(parser, at, item -> {
                        Delivery delivery = this.<DeliveryItem>item(parser, deliveryItems, item).delivery(item);
                        largestSequence = Math.max(largestSequence, delivery.sequence());
                        deliveries.add(delivery);
                    });
                    case "schedules" -> array(parser, at, item -> {
                        ScheduleItem schedule = item(parser, scheduleItems, item);
                        schedule.require(item);
                        schedules.add(schedule);
                    });
                    case "reservations" -> array(parser, at, item -> reservations.add(
                            this.<ReservationItem>item(parser, reservationItems, item).reservation(item)));
                    default -> throw SnapshotRules.refused(at, "unknown member");
                }
            }
            if (parser.nextToken() != null) {
                throw SnapshotRules.refused("", "nothing may follow the snapshot's object");
            }
        }

        private void format(SnapshotParser parser, String at) {
            parser.nextToken();
            long format;
            try {
                format = SnapshotValues.integer(parser, Long.MIN_VALUE, Long.MAX_VALUE);
            } catch (ProblemException invalid) {
                throw SnapshotRules.refused(at, invalid.getMessage());
            }
            if (format != ClockSnapshot.FORMAT) {
                throw SnapshotRules.refused(at, "this service reads snapshot format " + ClockSnapshot.FORMAT
                        + ", not " + format);
            }
            formatSeen = true;
        }

        /** The array at {@code at}; {@code item} reads each, the parser on its first token, given its pointer. */
        private void array(SnapshotParser parser, String at, Consumer<String> item) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw SnapshotRules.refused(at, "must be a JSON array");
            }
            for (int index = 0; parser.nextToken() != JsonToken.END_ARRAY; index++) {
                item.accept(at + "/" + index);
            }
        }

        /** The object the parser stands on, bound by {@code reader}; refused at {@code at} and Jackson's path. */
        private <T> T item(SnapshotParser parser, ObjectReader reader, String at) {
            if (!parser.hasToken(JsonToken.START_OBJECT)) {
                throw SnapshotRules.refused(at, "must be a JSON object");
            }
            try {
                return reader.readValue(parser);
            } catch (JacksonIOException unreadable) {
                throw unreadable;
            } catch (JacksonException failure) {
                throw SnapshotValues.refusal(failure, at);
            } catch (ProblemException refused) {
                throw refused.member() != null ? refused : SnapshotRules.refused(at, refused.getMessage());
            }
        }

        /** A schedule's {@code state}, where the document gives one, must be what its next and paused make. */
        void requireStates(ClockSnapshot snapshot) {
            for (int i = 0; i < schedules.size(); i++) {
                String given = schedules.get(i).state();
                String actual = snapshot.schedules().get(i).state().wire();
                if (given != null && !given.equals(actual)) {
                    throw SnapshotRules.refused("/schedules/" + i + "/state", "state " + given + " does not"
                            + " match next and paused, which make it " + actual);
                }
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
            long next = clock.nextSequence() != null ? clock.nextSequence() : largestSequence + 1;
            long now = clock.now() == null ? 0 : clock.now();
            List<Schedule> read = new ArrayList<>(schedules.size());
            for (ScheduleItem schedule : schedules) {
                read.add(schedule.schedule(now));
            }
            SnapshotRules.requireReservations(settings, reservations);
            return new ClockSnapshot(clock.name(), settings, now, next, timers, read, deliveries, reservations);
        }
    }
}
