package io.timeservice.web;

import java.math.BigDecimal;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.timeservice.model.CloudTask;
import io.timeservice.model.CloudTasksRules;
import io.timeservice.model.CloudTasksRules.QueueConfig;
import io.timeservice.model.CloudTasksRules.QueueName;
import io.timeservice.model.ProblemException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON of the Cloud Tasks drop-in API (issue 47): Queue and Task resources as Google's REST API shows them
 * (lowerCamelCase members, durations as "10s", timestamps in RFC 3339, bytes in base64), what requests may hold, and
 * Google's error shape. Every member a request may hold is read here; one it may not is refused by name.
 */
final class CloudTasksJson {

    private static final JsonMapper JSON = JsonMapper.shared();
    private static final List<String> QUEUE_MEMBERS = List.of("name", "rateLimits", "retryConfig", "state",
            "purgeTime", "stackdriverLoggingConfig");
    private static final List<String> TASK_MEMBERS = List.of("name", "httpRequest", "scheduleTime", "dispatchDeadline",
            "createTime", "dispatchCount", "responseCount", "firstAttempt", "lastAttempt", "view");
    /** Enums by number, for clients that send them so ({@code $alt=json;enum-encoding=int}, Node's REST fallback). */
    private static final List<String> HTTP_METHODS = List.of("HTTP_METHOD_UNSPECIFIED", "POST", "GET", "HEAD", "PUT",
            "DELETE", "PATCH", "OPTIONS");
    static final List<String> VIEWS = List.of("VIEW_UNSPECIFIED", "BASIC", "FULL");
    private static final List<String> REQUEST_MEMBERS = List.of("url", "httpMethod", "headers", "body", "oauthToken",
            "oidcToken");

    private CloudTasksJson() {
    }

    /** The body as a JSON object; an empty body is an empty object (as for {@code :pause}). */
    static JsonNode object(byte[] body) {
        if (body == null || body.length == 0) {
            return JSON.createObjectNode();
        }
        try {
            JsonNode node = JSON.readTree(body);
            if (node == null || !node.isObject()) {
                throw invalid("the request body must be a JSON object");
            }
            return node;
        } catch (JacksonException e) {
            throw invalid("the request body is not JSON: " + e.getOriginalMessage());
        }
    }

    /** A Queue's configuration from a request's Queue, Cloud Tasks' defaults for what it leaves out. */
    static QueueConfig queueConfig(JsonNode queue, QueueConfig base) {
        requireKnown(queue, QUEUE_MEMBERS, "queue");
        JsonNode rate = queue.path("rateLimits");
        JsonNode retry = queue.path("retryConfig");
        requireKnown(rate, List.of("maxDispatchesPerSecond", "maxBurstSize", "maxConcurrentDispatches"), "rateLimits");
        requireKnown(retry, List.of("maxAttempts", "maxRetryDuration", "minBackoff", "maxBackoff", "maxDoublings"),
                "retryConfig");
        double perSecond = rate.has("maxDispatchesPerSecond") && number(rate, "maxDispatchesPerSecond") != 0
                ? number(rate, "maxDispatchesPerSecond") : base.maxDispatchesPerSecond();
        int concurrent = (int) integer(rate, "maxConcurrentDispatches", base.maxConcurrentDispatches());
        int attempts = (int) integer(retry, "maxAttempts", base.maxAttempts());
        long retryDuration = duration(retry, "maxRetryDuration", base.maxRetryDurationMillis());
        long minBackoff = duration(retry, "minBackoff", base.minBackoffMillis());
        long maxBackoff = duration(retry, "maxBackoff", base.maxBackoffMillis());
        int doublings = (int) integer(retry, "maxDoublings", base.maxDoublings());
        return new QueueConfig(perSecond, concurrent, attempts, retryDuration, minBackoff, maxBackoff, doublings);
    }

    /** A Queue resource, its state PAUSED or RUNNING. */
    static ObjectNode queue(QueueName name, QueueConfig config, boolean paused) {
        ObjectNode queue = JSON.createObjectNode();
        queue.put("name", name.path());
        ObjectNode rate = queue.putObject("rateLimits");
        rate.put("maxDispatchesPerSecond", config.maxDispatchesPerSecond());
        rate.put("maxBurstSize", (int) config.maxBurstSize());
        rate.put("maxConcurrentDispatches", config.maxConcurrentDispatches());
        ObjectNode retry = queue.putObject("retryConfig");
        retry.put("maxAttempts", config.maxAttempts());
        retry.put("maxRetryDuration", CloudTasksRules.formatDuration(config.maxRetryDurationMillis()));
        retry.put("minBackoff", CloudTasksRules.formatDuration(config.minBackoffMillis()));
        retry.put("maxBackoff", CloudTasksRules.formatDuration(config.maxBackoffMillis()));
        retry.put("maxDoublings", config.maxDoublings());
        queue.put("state", paused ? "PAUSED" : "RUNNING");
        return queue;
    }

    /** The parts of a create call's Task. */
    record NewTask(String id, Long scheduleTime, String url, String method, Map<String, String> headers, byte[] body,
                   long deadlineMillis) {
    }

    /** A create call's Task: {@code name} (its last segment, or null), the time and the HTTP request. */
    static NewTask newTask(JsonNode task, QueueName queue) {
        if (!task.isObject()) {
            throw invalid("task is required: {\"task\": {\"httpRequest\": {...}}}");
        }
        requireKnown(task, TASK_MEMBERS, "task");
        String id = null;
        if (task.hasNonNull("name") && !text(task, "name").isEmpty()) {
            String name = text(task, "name");
            String prefix = queue.path() + "/tasks/";
            if (!name.startsWith(prefix)) {
                throw invalid("task.name must be " + prefix + "TASK_ID: " + name);
            }
            id = CloudTasksRules.requireTaskId(name.substring(prefix.length()));
        }
        Long scheduleTime = task.hasNonNull("scheduleTime")
                ? CloudTasksRules.parseTimestamp("task.scheduleTime", text(task, "scheduleTime")) : null;
        JsonNode request = task.path("httpRequest");
        if (!request.isObject()) {
            throw invalid("task.httpRequest is required (App Engine tasks are not supported)");
        }
        requireKnown(request, REQUEST_MEMBERS, "httpRequest");
        String url = CloudTasksRules.requireUrl(request.path("url").asString(null));
        String method = CloudTasksRules.method(enumName(request.path("httpMethod"), HTTP_METHODS));
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        JsonNode given = request.path("headers");
        if (!given.isMissingNode() && !given.isObject()) {
            throw invalid("httpRequest.headers must be an object of strings");
        }
        given.properties().forEach(header -> {
            if (!header.getValue().isString()) {
                throw invalid("httpRequest.headers." + header.getKey() + " must be a string");
            }
            headers.put(header.getKey(), header.getValue().asString());
        });
        byte[] body;
        try {
            body = Base64.getDecoder().decode(request.path("body").asString(""));
        } catch (IllegalArgumentException e) {
            throw invalid("httpRequest.body must be base64: " + e.getMessage());
        }
        if (body.length > 0 && !headers.containsKey("Content-Type")) {
            headers.put("Content-Type", "application/octet-stream"); // as Cloud Tasks sets it
        }
        long deadline = CloudTasksRules.dispatchDeadlineMillis(task.path("dispatchDeadline").asString(null));
        return new NewTask(id, scheduleTime, url, method, headers, body, deadline);
    }

    /** An enum member written as its name or its number; null when absent. */
    static String enumName(JsonNode value, List<String> names) {
        if (value.isMissingNode() || value.isNull()) {
            return null;
        }
        if (value.isIntegralNumber()) {
            int number = value.asInt();
            if (number < 0 || number >= names.size()) {
                throw invalid("an enum number must be 0 to " + (names.size() - 1) + ": " + value);
            }
            return names.get(number);
        }
        return value.asString();
    }

    /** {@code responseView} of a body: as a name or a number. */
    static boolean fullView(JsonNode view) {
        return fullView(enumName(view, VIEWS));
    }

    /** {@code responseView}: BASIC (the default) leaves the body out, FULL shows it; a query may give its number. */
    static boolean fullView(String view) {
        if (view != null && view.matches("\\d")) {
            view = enumName(JSON.getNodeFactory().numberNode(Integer.parseInt(view)), VIEWS);
        }
        if (view == null || view.isEmpty() || view.equals("VIEW_UNSPECIFIED") || view.equals("BASIC")) {
            return false;
        }
        if (view.equals("FULL")) {
            return true;
        }
        throw invalid("responseView must be BASIC or FULL: " + view);
    }

    /**
     * A Task resource.
     *
     * @param scheduleTime  when it is to be dispatched next (the clock's time)
     * @param dispatchCount how many times it was dispatched
     */
    static ObjectNode task(QueueName queue, String id, CloudTask task, long scheduleTime, int dispatchCount,
                           boolean full) {
        ObjectNode node = JSON.createObjectNode();
        node.put("name", queue.path() + "/tasks/" + id);
        ObjectNode request = node.putObject("httpRequest");
        request.put("url", task.url()).put("httpMethod", task.method());
        ObjectNode headers = request.putObject("headers");
        task.headers().forEach(headers::put);
        if (full) {
            request.put("body", Base64.getEncoder().encodeToString(task.body()));
        }
        node.put("scheduleTime", CloudTasksRules.formatTimestamp(scheduleTime));
        node.put("createTime", CloudTasksRules.formatTimestamp(task.createTime()));
        node.put("dispatchDeadline", CloudTasksRules.formatDuration(task.dispatchDeadlineMillis()));
        node.put("dispatchCount", dispatchCount);
        node.put("responseCount", dispatchCount);
        node.put("view", full ? "FULL" : "BASIC");
        return node;
    }

    /** Google's JSON error: {@code {"error":{"code","message","status"}}}. */
    static ResponseEntity<Object> error(CloudTasksError error) {
        ObjectNode body = JSON.createObjectNode();
        body.putObject("error").put("code", error.status.http).put("message", error.getMessage())
                .put("status", error.status.name());
        return ResponseEntity.status(error.status.http).contentType(MediaType.APPLICATION_JSON).body(body);
    }

    static ResponseEntity<Object> ok(Object body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    static String text(JsonNode node, String member) {
        JsonNode value = node.path(member);
        if (!value.isString()) {
            throw invalid(member + " must be a string");
        }
        return value.asString();
    }

    private static double number(JsonNode node, String member) {
        JsonNode value = node.path(member);
        if (!value.isNumber()) {
            throw invalid(member + " must be a number");
        }
        return value.asDouble();
    }

    /** An integer member (protobuf JSON may write it as a string); {@code absent} when missing, null or 0. */
    private static long integer(JsonNode node, String member, long absent) {
        JsonNode value = node.path(member);
        if (value.isMissingNode() || value.isNull()) {
            return absent;
        }
        try {
            long number = value.isIntegralNumber() ? value.asLong()
                    : value.isString() ? new BigDecimal(value.asString()).longValueExact() : Long.MIN_VALUE;
            if (number == Long.MIN_VALUE || number != (int) number) {
                throw invalid(member + " must be an integer: " + value);
            }
            return number == 0 ? absent : number;
        } catch (ArithmeticException | NumberFormatException e) {
            throw invalid(member + " must be an integer: " + value);
        }
    }

    private static long duration(JsonNode node, String member, long absent) {
        JsonNode value = node.path(member);
        if (value.isMissingNode() || value.isNull()) {
            return absent;
        }
        return CloudTasksRules.parseDuration(member, value.isString() ? value.asString() : value.toString());
    }

    private static void requireKnown(JsonNode node, List<String> members, String what) {
        if (node.isMissingNode() || node.isNull()) {
            return;
        }
        if (!node.isObject()) {
            throw invalid(what + " must be an object");
        }
        for (String member : node.propertyNames()) {
            if (!members.contains(member)) {
                throw invalid(what + "." + member + " is not supported by TimeService's Cloud Tasks API"
                        + " (docs/DROP-IN.md)");
            }
        }
    }

    private static CloudTasksError invalid(String message) {
        return new CloudTasksError(CloudTasksError.Status.INVALID_ARGUMENT, message);
    }

    /** A TimeService refusal or a Cloud Tasks one as Google's error. */
    static ResponseEntity<Object> refused(RuntimeException refusal) {
        if (refusal instanceof ProblemException problem) {
            return error(CloudTasksError.of(problem));
        }
        return error((CloudTasksError) refusal);
    }
}
