package io.timeservice.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QStashRules;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * QStash v2's publish and batch (issue 47, docs/DROP-IN.md): {@code POST /v2/publish/{destination}} and
 * {@code POST /v2/batch} store each message as a timer on its push clock {@link QStashRules#clockName} through
 * {@link QStashPublisher}; the pusher sends it to the destination signed as QStash signs
 * ({@code io.timeservice.push.QStashSender}). Answers {@code {"messageId", "url"}} as QStash does; refusals are
 * {@link QStashErrors}'.
 */
@RestController
class QStashController {

    private static final JsonMapper JSON = JsonMapper.shared();
    /** A publish's headers that belong to schedules: refused, not dropped. */
    private static final List<String> NOT_FOR_PUBLISH = List.of("upstash-cron", "upstash-schedule-id");

    private final QStashPublisher publisher;
    private final TimeServiceProperties.Qstash settings;

    QStashController(QStashPublisher publisher, TimeServiceProperties properties) {
        this.publisher = publisher;
        this.settings = properties.qstash();
    }

    /**
     * QStash's signing keys, {@code {"current", "next"}} as configured (the write scope only): the service signs with
     * the current one; receivers hold both. Rotation is configuration, so {@code POST /v2/keys/rotate} is not served.
     */
    @GetMapping("/v2/keys")
    Map<String, String> keys() {
        if (settings.currentSigningKey() == null || settings.currentSigningKey().isEmpty()) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "no signing key is configured"
                    + " (timeservice.qstash.current-signing-key): messages leave unsigned");
        }
        Map<String, String> keys = new TreeMap<>();
        keys.put("current", settings.currentSigningKey());
        keys.put("next", settings.nextSigningKey() == null ? "" : settings.nextSigningKey());
        return keys;
    }

    @PostMapping("/v2/publish/{destination}")
    ResponseEntity<Map<String, Object>> publish(HttpServletRequest request,
                                                @RequestBody(required = false) byte[] body) {
        QStashPublisher.Prepared message = publisher.prepare(destinationOf(request),
                QStashPublisher.headersOf(request), body == null ? new byte[0] : body, NOT_FOR_PUBLISH);
        Map<String, Object> answer = publisher.store(message);
        return ResponseEntity.status(answer.containsKey("deduplicated") ? HttpStatus.ACCEPTED : HttpStatus.CREATED)
                .body(answer);
    }

    /**
     * {@code [{"destination", "headers": {...}, "body"}, ...]} as the SDK's {@code batch} sends it: every message and
     * every clock they need is checked before any is stored, then every message is stored in one batch across the
     * clocks, all or nothing ({@link QStashPublisher#storeAll}); the answer lists each one's in order.
     */
    @PostMapping("/v2/batch")
    ResponseEntity<List<Map<String, Object>>> batch(@RequestBody(required = false) byte[] body) {
        List<QStashPublisher.Prepared> prepared = new ArrayList<>();
        JsonNode messages = readArray(body);
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            try {
                prepared.add(prepare(message));
            } catch (ProblemException refused) {
                throw new ProblemException(refused.code(), "message " + i + ": " + refused.getMessage());
            }
        }
        return ResponseEntity.status(HttpStatus.CREATED).body(publisher.storeAll(prepared));
    }

    private QStashPublisher.Prepared prepare(JsonNode message) {
        if (!message.isObject()) {
            throw invalid("each message is an object {\"destination\", \"headers\", \"body\"}");
        }
        for (String member : message.propertyNames()) {
            if (member.equals("queue")) {
                throw QStashRules.unsupported("queue (Upstash-Queue-Name)");
            }
            if (!List.of("destination", "headers", "body").contains(member)) {
                throw invalid("unknown member " + member + " (destination, headers, body)");
            }
        }
        JsonNode destination = message.path("destination");
        JsonNode headers = message.path("headers");
        JsonNode body = message.path("body");
        if (!destination.isString() || !(headers.isMissingNode() || headers.isObject())
                || !(body.isMissingNode() || body.isNull() || body.isString())) {
            throw invalid("destination must be a string, headers an object of strings, body a string");
        }
        Map<String, String> named = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Map.Entry<String, JsonNode> header : headers.properties()) {
            if (!header.getValue().isString()) {
                throw invalid("header " + header.getKey() + " must be a string");
            }
            named.put(header.getKey(), header.getValue().asString());
        }
        return publisher.prepare(destination.asString(), named,
                body.isString() ? body.asString().getBytes(StandardCharsets.UTF_8) : new byte[0], NOT_FOR_PUBLISH);
    }

    private static JsonNode readArray(byte[] body) {
        JsonNode messages;
        try {
            messages = body == null ? null : JSON.readTree(body);
        } catch (JacksonException malformed) {
            throw invalid("the batch is not JSON: " + malformed.getOriginalMessage());
        }
        if (messages == null || !messages.isArray() || messages.isEmpty() || messages.size() > Limits.MAX_BATCH_OPS) {
            throw invalid("the batch is a JSON array of 1 to " + Limits.MAX_BATCH_OPS + " messages");
        }
        return messages;
    }

    private static String destinationOf(HttpServletRequest request) {
        Object destination = request.getAttribute(QStashPaths.DESTINATION);
        if (!(destination instanceof String url) || url.isEmpty()) {
            throw invalid("the destination URL is missing: POST /v2/publish/<destination>");
        }
        return url;
    }

    private static ProblemException invalid(String message) {
        return new ProblemException(ErrorCode.INVALID_REQUEST, message);
    }
}
