package io.timeservice.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.model.AddOutcome;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockBatch;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.OnConflict;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.PushTargetGuard;
import io.timeservice.model.QStashMessage;
import io.timeservice.model.QStashRules;
import io.timeservice.model.Trace;
import io.timeservice.store.TimerStore;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Component;

/**
 * Turns a QStash publish (a destination, its {@code Upstash-*} headers and body) into a message on its QStash clock
 * (issue 47, docs/DROP-IN.md): {@link #prepare} checks everything and stores nothing, {@link #store} adds the timer.
 * The publish, each message of a batch and a schedule's message all go through {@link #prepare}. Thread-safe.
 */
@Component
class QStashPublisher {

    private static final String FORWARD = "upstash-forward-";
    /** Taken by QStash, not done here: refused, so nothing is accepted and silently dropped. */
    private static final List<String> UNSUPPORTED = List.of("upstash-callback", "upstash-failure-callback",
            "upstash-retry-delay", "upstash-flow-control-key", "upstash-flow-control-value", "upstash-queue-name",
            "upstash-label");

    private final TimerStore timers;
    private final PushTargetGuard targets;
    private final QStashClocks clocks;
    private final QStashMessage.Codec messages;
    private final int maxPayloadBytes;

    QStashPublisher(TimerStore timers, PushTargetGuard targets, QStashClocks clocks, QStashMessage.Codec messages,
                    TimeServiceProperties properties) {
        this.timers = timers;
        this.targets = targets;
        this.clocks = clocks;
        this.messages = messages;
        this.maxPayloadBytes = properties.limits().maxPayloadBytes();
    }

    /** A message checked and ready to store: its clock, id, due time and timer payload. */
    record Prepared(int retries, String id, Due due, String payload, String url) {
    }

    /** The request's headers, case-insensitive, each name's first value. */
    static Map<String, String> headersOf(HttpServletRequest request) {
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String name : Collections.list(request.getHeaderNames())) {
            headers.put(name, request.getHeader(name));
        }
        return headers;
    }

    /**
     * Checks a message to {@code destination} with {@code headers} (case-insensitive) and {@code body}; refuses
     * headers in {@code refused} besides those TimeService never takes.
     */
    Prepared prepare(String destination, Map<String, String> headers, byte[] body, List<String> refused) {
        if (destination == null || destination.isEmpty()) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "the destination URL is missing");
        }
        Map<String, String> forwarded = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Map.Entry<String, String> header : headers.entrySet()) {
            String lower = header.getKey().toLowerCase(Locale.ROOT);
            if (UNSUPPORTED.contains(lower) || refused.contains(lower)) {
                throw QStashRules.unsupported(header.getKey());
            }
            if (lower.startsWith(FORWARD) && lower.length() > FORWARD.length()) {
                forwarded.put(header.getKey().substring(FORWARD.length()), header.getValue());
            }
        }
        String contentType = headers.get("Content-Type");
        if (contentType != null) {
            forwarded.put("Content-Type", contentType);
        }
        Map<String, String> pushed = new TreeMap<>(forwarded);
        pushed.keySet().removeIf(name -> name.equalsIgnoreCase("Content-Type")); // sent as the body's
        PushTarget target = new PushTarget(destination, PushTarget.MAX_TIMEOUT_MILLIS, 1, pushed, List.of());
        targets.requireAllowed(target); // checks the URL and the headers as a push target's
        int retries = QStashRules.retries(headers.get("Upstash-Retries"));
        String method = QStashRules.method(headers.get("Upstash-Method"));
        long timeout = QStashRules.timeoutMillis(headers.get("Upstash-Timeout"));
        Long delay = QStashRules.durationMillis("Upstash-Delay", headers.get("Upstash-Delay"));
        Long notBefore = QStashRules.notBeforeMillis(headers.get("Upstash-Not-Before"));
        String payload = messages.write(new QStashMessage(target.url(), method, timeout, forwarded, body));
        int bytes = payload.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxPayloadBytes) {
            throw new ProblemException(ErrorCode.PAYLOAD_TOO_LARGE, "the message is " + bytes + " bytes as its timer's"
                    + " payload (body in base64, destination and headers); the limit is " + maxPayloadBytes
                    + " (timeservice.limits.max-payload-bytes)");
        }
        Due due = notBefore != null ? Due.at(notBefore) : Due.after(delay == null ? 0 : delay);
        return new Prepared(retries, messageId(headers, target.url(), method, forwarded, body), due, payload,
                target.url());
    }

    /**
     * Stores a prepared message: {@code {"messageId", "url"}}, or with {@code "deduplicated": true} when its id is
     * pending or reserved already (then nothing is stored).
     */
    Map<String, Object> store(Prepared message) {
        String clock = clocks.require(message.retries());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("messageId", message.id());
        answer.put("url", message.url());
        try {
            timers.add(clock, message.id(), message.due(), 0, message.payload(), Trace.NONE);
        } catch (ProblemException duplicate) {
            if (duplicate.code() != ErrorCode.DUPLICATE_ID) {
                throw duplicate;
            }
            answer.put("deduplicated", true);
        }
        return answer;
    }

    /**
     * Stores a batch's prepared messages, answering each one's {@link #store} answer in order. Every clock they need
     * is checked before any is made or any message stored; then every clock's messages are stored as one batch across
     * the clocks ({@link TimerStore#batchAcross}), all or nothing (a message whose id is pending or reserved, or taken
     * by an earlier one of the batch, is deduplicated), so a refusal leaves none of the messages behind on any clock
     * (a clock made for them stays, empty). A refusal of a message names it by its index in the batch.
     */
    List<Map<String, Object>> storeAll(List<Prepared> messages) {
        Map<Integer, List<Integer>> byRetries = new TreeMap<>();
        for (int i = 0; i < messages.size(); i++) {
            byRetries.computeIfAbsent(messages.get(i).retries(), retries -> new ArrayList<>()).add(i);
        }
        byRetries.keySet().forEach(clocks::check);
        List<ClockBatch> parts = new ArrayList<>(byRetries.size());
        List<Integer> messageOf = new ArrayList<>(messages.size()); // each operation's message, in the parts' order
        for (Map.Entry<Integer, List<Integer>> group : byRetries.entrySet()) {
            List<BatchOp> adds = new ArrayList<>(group.getValue().size());
            for (int i : group.getValue()) {
                Prepared message = messages.get(i);
                adds.add(new BatchOp.Add(message.id(), message.due(), 0, message.payload(), null, null,
                        OnConflict.KEEP));
                messageOf.add(i);
            }
            parts.add(new ClockBatch(clocks.require(group.getKey()), adds));
        }
        List<List<AddOutcome>> outcomes;
        try {
            outcomes = timers.batchAcross(parts);
        } catch (ProblemException refused) {
            throw refused.opIndex() < 0 ? refused : atMessage(refused, messageOf.get(refused.opIndex()));
        }
        List<Map<String, Object>> answers = new ArrayList<>(Collections.nCopies(messages.size(), null));
        int op = 0;
        for (List<AddOutcome> part : outcomes) {
            for (AddOutcome outcome : part) {
                int i = messageOf.get(op++);
                answers.set(i, answer(messages.get(i), outcome.result() == AddOutcome.Result.KEPT));
            }
        }
        return answers;
    }

    /** {@code refused}, an operation's refusal, as a refusal of the batch's message {@code index}. */
    private static ProblemException atMessage(ProblemException refused, int index) {
        String prefix = "operation " + refused.opIndex() + ": ";
        String message = refused.getMessage();
        return new ProblemException(refused.code(), "message " + index + ": "
                + (message.startsWith(prefix) ? message.substring(prefix.length()) : message));
    }

    private static Map<String, Object> answer(Prepared message, boolean deduplicated) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("messageId", message.id());
        answer.put("url", message.url());
        if (deduplicated) {
            answer.put("deduplicated", true);
        }
        return answer;
    }

    /**
     * A new random id; with {@code Upstash-Deduplication-Id} one derived from it, and with
     * {@code Upstash-Content-Based-Deduplication: true} one derived from the destination, method, headers and body,
     * so a second such publish meets the first's id (pending, or reserved by the clock's dedupe window).
     */
    private static String messageId(Map<String, String> request, String url, String method,
                                    Map<String, String> headers, byte[] body) {
        String dedupe = request.get("Upstash-Deduplication-Id");
        if (dedupe != null) {
            return "msg_d" + hash(dedupe.getBytes(StandardCharsets.UTF_8));
        }
        if ("true".equalsIgnoreCase(request.get("Upstash-Content-Based-Deduplication"))) {
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
