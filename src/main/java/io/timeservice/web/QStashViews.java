package io.timeservice.web;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.timeservice.model.Delivery;
import io.timeservice.model.QStashMessage;
import io.timeservice.model.QStashRules;
import io.timeservice.model.Schedule;
import io.timeservice.model.Timer;

/**
 * The JSON of QStash's message, schedule and dead-letter objects (issue 47), with the member names the SDK reads
 * ({@code messageId}, {@code url}, {@code header} as name to a list of values, {@code body} or {@code bodyBase64}, ...).
 * Stateless.
 */
final class QStashViews {

    private QStashViews() {
    }

    /** A pending message: the timer {@code timer} of the clock with {@code retries}. */
    static Map<String, Object> message(Timer timer, QStashMessage message, int retries) {
        Map<String, Object> view = identified(message, timer.id(), retries, timer.fireTime(), timer.schedule());
        view.put("createdAt", timer.createdAt());
        return view;
    }

    /**
     * A message in progress: the push delivery {@code delivery} of the clock with {@code retries} (ready, in flight or
     * waiting), with {@code attempt} and, while it waits, {@code retryAt}; its timer's creation time is not kept.
     */
    static Map<String, Object> message(Delivery delivery, QStashMessage message, int retries) {
        Map<String, Object> view = identified(message, delivery.id(), retries, delivery.fireTime(),
                delivery.schedule());
        view.put("attempt", delivery.attempt());
        if (delivery.state() == Delivery.State.WAITING) {
            view.put("retryAt", delivery.retryAt());
        }
        return view;
    }

    /** A schedule of the clock with {@code retries}: its message, cron and state. */
    static Map<String, Object> schedule(Schedule schedule, QStashMessage message, int retries) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("scheduleId", schedule.id());
        String zone = schedule.spec().zone();
        view.put("cron", zone == null ? schedule.spec().cron() : "CRON_TZ=" + zone + " " + schedule.spec().cron());
        view.put("destination", message.url());
        Map<String, Object> common = common(message);
        common.remove("url");
        view.putAll(common);
        view.put("retries", retries);
        view.put("isPaused", schedule.spec().paused());
        if (schedule.next() != null) {
            view.put("nextScheduleTime", schedule.next());
        }
        if (schedule.taken() != Long.MIN_VALUE) {
            view.put("lastScheduleTime", schedule.taken());
        }
        return view;
    }

    /** A dead letter of the clock with {@code retries}: the message, its dlqId and why it died. */
    static Map<String, Object> deadLetter(Delivery dead, QStashMessage message, int retries) {
        Map<String, Object> view = identified(message, dead.id(), retries, dead.fireTime(), dead.schedule());
        view.put("dlqId", QStashRules.dlqId(retries, dead.sequence()));
        view.put("deadReason", dead.deadReason()); // TimeService's own: the target's answer is not kept
        return view;
    }

    /** The message with its id, retry count, due time and (for an occurrence) schedule. */
    private static Map<String, Object> identified(QStashMessage message, String id, int retries, long notBefore,
                                                  String schedule) {
        Map<String, Object> view = common(message);
        view.put("messageId", id);
        view.put("maxRetries", retries);
        view.put("notBefore", notBefore);
        if (schedule != null) {
            view.put("scheduleId", schedule);
        }
        return view;
    }

    private static Map<String, Object> common(QStashMessage message) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("url", message.url());
        view.put("method", message.method());
        Map<String, List<String>> header = new TreeMap<>();
        message.headers().forEach((name, value) -> header.put(name, List.of(value)));
        view.put("header", header);
        String text = utf8(message.body());
        if (text != null) {
            view.put("body", text);
        } else {
            view.put("bodyBase64", Base64.getEncoder().encodeToString(message.body()));
        }
        return view;
    }

    private static String utf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException notText) {
            return null;
        }
    }
}
