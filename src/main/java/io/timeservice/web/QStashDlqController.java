package io.timeservice.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QStashMessage;
import io.timeservice.model.QStashRules;
import io.timeservice.store.DeliveryStore;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * QStash v2's dead-letter queue on the QStash clocks' dead deliveries (issue 47, docs/DROP-IN.md). A dead letter's
 * {@code dlqId} is {@code dlq_<retries>_<sequence>} ({@link QStashRules#dlqId}): its clock and its delivery's sequence.
 * {@code GET /v2/dlq} lists them by clock (retry count) and sequence, {@code count} at a time with a {@code cursor}
 * ({@code <retries>_<sequence>} of the last one listed); {@code DELETE /v2/dlq/{dlqId}}, {@code DELETE /v2/dlq} and
 * {@code POST /v2/dlq/retry} delete or redrive one, those named by {@code dlqIds}, or a page of those the filters
 * ({@code messageId}, {@code url}, {@code scheduleId}; none: all) take, as the SDK sends them.
 */
@RestController
class QStashDlqController {

    private static final int DEFAULT_COUNT = 100;
    private static final int MAX_COUNT = 1_000;
    private static final List<String> PARAMETERS = List.of("dlqIds", "count", "cursor", "messageId", "url",
            "scheduleId");

    private final DeliveryStore deliveries;
    private final QStashClocks clocks;
    private final QStashMessage.Codec messages;

    QStashDlqController(DeliveryStore deliveries, QStashClocks clocks, QStashMessage.Codec messages) {
        this.deliveries = deliveries;
        this.clocks = clocks;
        this.messages = messages;
    }

    /** One dead letter: its clock's retry count, the delivery and its message. */
    private record Letter(int retries, Delivery dead, QStashMessage message) {

        String clock() {
            return QStashRules.clockName(retries);
        }
    }

    /** A page of dead letters, and the cursor after it (null: nothing more). */
    private record Page(List<Letter> letters, String cursor) {
    }

    @GetMapping("/v2/dlq")
    Map<String, Object> list(@RequestParam MultiValueMap<String, String> query) {
        Page page = select(query);
        List<Map<String, Object>> views = new ArrayList<>();
        for (Letter letter : page.letters()) {
            views.add(QStashViews.deadLetter(letter.dead(), letter.message(), letter.retries()));
        }
        return withCursor("messages", views, page.cursor());
    }

    /** QStash's REST API reads one dead letter; the SDK has no call for it. */
    @GetMapping("/v2/dlq/{dlqId}")
    Map<String, Object> get(@PathVariable String dlqId) {
        Letter letter = find(dlqId);
        if (letter == null) {
            throw notFound(dlqId);
        }
        return QStashViews.deadLetter(letter.dead(), letter.message(), letter.retries());
    }

    @DeleteMapping("/v2/dlq/{dlqId}")
    ResponseEntity<Void> delete(@PathVariable String dlqId) {
        Letter letter = find(dlqId);
        if (letter == null) {
            throw notFound(dlqId);
        }
        deliveries.deleteDead(letter.clock(), letter.dead().id(), letter.dead().sequence());
        return ResponseEntity.ok().build();
    }

    @DeleteMapping("/v2/dlq")
    Map<String, Object> deleteMany(@RequestParam MultiValueMap<String, String> query) {
        Page page = select(query);
        int deleted = 0;
        for (Letter letter : page.letters()) {
            if (settled(() -> deliveries.deleteDead(letter.clock(), letter.dead().id(), letter.dead().sequence()))) {
                deleted++;
            }
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("deleted", deleted);
        if (page.cursor() != null) {
            answer.put("cursor", page.cursor());
        }
        return answer;
    }

    @PostMapping("/v2/dlq/retry")
    Map<String, Object> retry(@RequestParam MultiValueMap<String, String> query) {
        Page page = select(query);
        List<Map<String, Object>> responses = new ArrayList<>();
        for (Letter letter : page.letters()) {
            if (settled(() -> deliveries.redrive(letter.clock(), letter.dead().id(), letter.dead().sequence()))) {
                responses.add(Map.of("messageId", letter.dead().id()));
            }
        }
        return withCursor("responses", responses, page.cursor());
    }

    private Page select(MultiValueMap<String, String> query) {
        for (String name : query.keySet()) {
            if (!PARAMETERS.contains(name)) {
                throw invalid("the filter " + name + " is not supported by TimeService's QStash API (docs/DROP-IN.md):"
                        + " dlqIds, messageId, url, scheduleId, count and cursor are");
            }
        }
        List<String> ids = query.getOrDefault("dlqIds", List.of());
        if (!ids.isEmpty()) {
            List<Letter> letters = new ArrayList<>();
            for (String id : ids) {
                Letter letter = find(id);
                if (letter != null) {
                    letters.add(letter);
                }
            }
            return new Page(letters, null);
        }
        int count = count(query.getFirst("count"));
        long[] cursor = cursor(query.getFirst("cursor"));
        List<Letter> letters = new ArrayList<>();
        for (String clock : clocks.existing()) {
            int retries = QStashRules.retriesOf(clock);
            if (retries < cursor[0]) {
                continue;
            }
            long after = retries == cursor[0] ? cursor[1] : 0;
            while (true) {
                List<Delivery> dead = dead(clock, MAX_COUNT, after);
                for (Delivery delivery : dead) {
                    after = delivery.sequence();
                    QStashMessage message = messages.read(delivery.payload());
                    if (message != null && takes(query, delivery, message)) {
                        letters.add(new Letter(retries, delivery, message));
                        if (letters.size() == count) {
                            return new Page(letters, retries + "_" + delivery.sequence());
                        }
                    }
                }
                if (dead.size() < MAX_COUNT) {
                    break;
                }
            }
        }
        return new Page(letters, null);
    }

    private static boolean takes(MultiValueMap<String, String> query, Delivery dead, QStashMessage message) {
        return matches(query.get("messageId"), dead.id()) && matches(query.get("url"), message.url())
                && matches(query.get("scheduleId"), dead.schedule());
    }

    /** No values: no condition; else the value is one of them. */
    private static boolean matches(List<String> values, String value) {
        return values == null || values.contains(value);
    }

    /** The dead letter {@code dlqId} names, or null when there is none (or it is no dlqId at all). */
    private Letter find(String dlqId) {
        long[] named;
        try {
            named = QStashRules.ofDlqId(dlqId);
        } catch (ProblemException notAnId) {
            return null;
        }
        String clock = QStashRules.clockName((int) named[0]);
        List<Delivery> dead = named[1] < 1 ? List.of() : dead(clock, 1, named[1] - 1);
        if (dead.isEmpty() || dead.get(0).sequence() != named[1]) {
            return null;
        }
        QStashMessage message = messages.read(dead.get(0).payload());
        return message == null ? null : new Letter((int) named[0], dead.get(0), message);
    }

    private List<Delivery> dead(String clock, int limit, long after) {
        try {
            return deliveries.dead(clock, limit, after);
        } catch (ProblemException absent) {
            if (absent.code() != ErrorCode.CLOCK_NOT_FOUND) {
                throw absent;
            }
            return List.of();
        }
    }

    /** Runs a change of one dead letter; false when it went meanwhile (redriven or deleted by another call). */
    private static boolean settled(Runnable change) {
        try {
            change.run();
            return true;
        } catch (ProblemException gone) {
            if (gone.code() != ErrorCode.DELIVERY_NOT_FOUND) {
                throw gone;
            }
            return false;
        }
    }

    private static Map<String, Object> withCursor(String member, List<Map<String, Object>> items, String cursor) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put(member, items);
        if (cursor != null) {
            answer.put("cursor", cursor);
        }
        return answer;
    }

    private static int count(String text) {
        if (text == null) {
            return DEFAULT_COUNT;
        }
        try {
            int count = Integer.parseInt(text);
            if (count >= 1 && count <= MAX_COUNT) {
                return count;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw invalid("count must be an integer 1 to " + MAX_COUNT + ": " + text);
    }

    /** {@code <retries>_<sequence>}: start after that dead letter; none: from the start. */
    private static long[] cursor(String text) {
        if (text == null || text.isEmpty()) {
            return new long[] {0, 0};
        }
        String[] parts = text.split("_", -1);
        try {
            if (parts.length == 2) {
                long retries = Long.parseLong(parts[0]);
                long sequence = Long.parseLong(parts[1]);
                if (retries >= 0 && retries <= QStashRules.MAX_RETRIES && sequence >= 0) {
                    return new long[] {retries, sequence};
                }
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw invalid("cursor must be one a listing answered (<retries>_<sequence>): " + text);
    }

    private static ProblemException invalid(String message) {
        return new ProblemException(ErrorCode.INVALID_REQUEST, message);
    }

    private static ProblemException notFound(String dlqId) {
        return new ProblemException(ErrorCode.DELIVERY_NOT_FOUND, "no dead letter has the dlqId " + dlqId);
    }
}
