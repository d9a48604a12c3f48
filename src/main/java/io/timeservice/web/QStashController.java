package io.timeservice.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockView;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.PushTargetGuard;
import io.timeservice.model.QStashMessage;
import io.timeservice.model.QStashRules;
import io.timeservice.model.Trace;
import io.timeservice.store.ClockStore;
import io.timeservice.store.TimerStore;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * QStash v2's publish (issue 47, docs/DROP-IN.md): {@code POST /v2/publish/{destination}} stores the message as a timer
 * on the push clock {@link QStashRules#clockName} (made on first use), whose pusher sends it to the destination signed
 * as QStash signs ({@code io.timeservice.push.QStashSender}). Answers {@code {"messageId": ...}} as QStash does, and
 * refusals as {@code {"error": "..."}}, the body the SDK's {@code QstashError} carries.
 */
@RestController
class QStashController {

    private static final String FORWARD = "upstash-forward-";
    /** Taken by QStash, not done here: refused, so nothing is accepted and silently dropped. */
    private static final List<String> UNSUPPORTED = List.of("upstash-callback", "upstash-failure-callback",
            "upstash-retry-delay", "upstash-flow-control-key", "upstash-flow-control-value", "upstash-queue-name",
            "upstash-cron", "upstash-label");

    private final ClockStore clocks;
    private final TimerStore timers;
    private final PushTargetGuard targets;
    private final ClockSettings.Mode mode;
    private final QStashMessage.Codec messages;
    private final int maxPayloadBytes;

    QStashController(ClockStore clocks, TimerStore timers, PushTargetGuard targets, TimeServiceProperties properties,
                     QStashMessage.Codec messages) {
        this.messages = messages;
        this.maxPayloadBytes = properties.limits().maxPayloadBytes();
        this.clocks = clocks;
        this.timers = timers;
        this.targets = targets;
        this.mode = properties.qstash().mode();
    }

    @PostMapping("/v2/publish/{destination}")
    ResponseEntity<Object> publish(HttpServletRequest request, @RequestBody(required = false) byte[] body) {
        try {
            return publishMessage(request, body == null ? new byte[0] : body);
        } catch (ProblemException refused) {
            HttpStatus status = switch (refused.code()) {
                case TARGET_NOT_ALLOWED, INVALID_REQUEST, INVALID_ID -> HttpStatus.BAD_REQUEST;
                case PAYLOAD_TOO_LARGE -> HttpStatus.PAYLOAD_TOO_LARGE;
                default -> HttpStatus.CONFLICT;
            };
            return ResponseEntity.status(status).body(Map.of("error", refused.getMessage()));
        }
    }

    private ResponseEntity<Object> publishMessage(HttpServletRequest request, byte[] body) {
        Object attribute = request.getAttribute(QStashPaths.DESTINATION);
        if (!(attribute instanceof String destination) || destination.isEmpty()) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "the destination URL is missing: "
                    + "POST /v2/publish/<destination>");
        }
        Map<String, String> forwarded = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String name : Collections.list(request.getHeaderNames())) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (UNSUPPORTED.contains(lower)) {
                throw QStashRules.unsupported(name);
            }
            if (lower.startsWith(FORWARD) && lower.length() > FORWARD.length()) {
                forwarded.put(name.substring(FORWARD.length()), request.getHeader(name));
            }
        }
        if (request.getContentType() != null) {
            forwarded.put("Content-Type", request.getContentType());
        }
        PushTarget target = new PushTarget(destination, PushTarget.MAX_TIMEOUT_MILLIS, 1, forwardedOnly(forwarded),
                List.of()); // checks the URL and the headers as a push target's
        targets.requireAllowed(target);
        int retries = QStashRules.retries(request.getHeader("Upstash-Retries"));
        String method = QStashRules.method(request.getHeader("Upstash-Method"));
        long timeout = QStashRules.timeoutMillis(request.getHeader("Upstash-Timeout"));
        Long delay = QStashRules.durationMillis("Upstash-Delay", request.getHeader("Upstash-Delay"));
        Long notBefore = QStashRules.notBeforeMillis(request.getHeader("Upstash-Not-Before"));
        String id = messageId(request, target.url(), method, forwarded, body);

        String clock = QStashRules.clockName(retries);
        String payload = messages.write(new QStashMessage(target.url(), method, timeout, forwarded, body));
        int bytes = payload.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxPayloadBytes) {
            throw new ProblemException(ErrorCode.PAYLOAD_TOO_LARGE, "the message is " + bytes + " bytes as its timer's"
                    + " payload (body in base64, destination and headers); the limit is " + maxPayloadBytes
                    + " (timeservice.limits.max-payload-bytes)");
        }
        requireClock(clock, QStashRules.clockSettings(mode, retries));
        Due due = notBefore != null ? Due.at(notBefore) : Due.after(delay == null ? 0 : delay);
        try {
            timers.add(clock, id, due, 0, payload, Trace.NONE);
        } catch (ProblemException duplicate) {
            if (duplicate.code() != ErrorCode.DUPLICATE_ID) {
                throw duplicate;
            }
            return ResponseEntity.status(HttpStatus.ACCEPTED).body(Map.of("messageId", id, "deduplicated", true));
        }
        return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("messageId", id));
    }

    /** Makes {@code clock} with {@code settings} unless it exists; refuses one that exists with other settings. */
    private void requireClock(String clock, ClockSettings settings) {
        ClockView view;
        try {
            view = clocks.get(clock);
        } catch (ProblemException absent) {
            if (absent.code() != ErrorCode.CLOCK_NOT_FOUND) {
                throw absent;
            }
            try {
                view = clocks.create(clock, System.currentTimeMillis(), settings).clock();
            } catch (ProblemException raced) { // made meanwhile by another publish, at another now
                view = clocks.get(clock);
            }
        }
        if (!view.settings().equals(settings)) {
            throw QStashRules.clockTaken(clock);
        }
    }

    /** The forwarded headers a {@link PushTarget} may hold: all but Content-Type, which is sent as the body's. */
    private static Map<String, String> forwardedOnly(Map<String, String> forwarded) {
        Map<String, String> only = new TreeMap<>(forwarded);
        only.keySet().removeIf(name -> name.equalsIgnoreCase("Content-Type"));
        return only;
    }

    /**
     * A new random id; with {@code Upstash-Deduplication-Id} one derived from it, and with
     * {@code Upstash-Content-Based-Deduplication: true} one derived from the destination, method, headers and body,
     * so a second such publish meets the first's id (pending, or reserved by the clock's dedupe window).
     */
    private static String messageId(HttpServletRequest request, String url, String method, Map<String, String> headers,
                                    byte[] body) {
        String dedupe = request.getHeader("Upstash-Deduplication-Id");
        if (dedupe != null) {
            return "msg_d" + hash(dedupe.getBytes(StandardCharsets.UTF_8));
        }
        if ("true".equalsIgnoreCase(request.getHeader("Upstash-Content-Based-Deduplication"))) {
            String content = url + "\n" + method + "\n" + headers + "\n" + Base64.getEncoder().encodeToString(body);
            return "msg_c" + hash(content.getBytes(StandardCharsets.UTF_8));
        }
        return "msg_" + UUID.randomUUID().toString().replace("-", "");
    }

    private static String hash(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 20);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
