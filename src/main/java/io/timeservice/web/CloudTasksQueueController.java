package io.timeservice.web;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import io.timeservice.config.CloudTasksProperties;
import io.timeservice.model.ClockChange;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockView;
import io.timeservice.model.CloudTasksRules;
import io.timeservice.model.CloudTasksRules.QueueConfig;
import io.timeservice.model.CloudTasksRules.QueueName;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.store.ClockStore;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Cloud Tasks v2's queue calls over HTTP/JSON (issue 47, docs/DROP-IN.md): each queue is the push clock
 * {@link QueueName#clock}, virtual or system by the create call's {@value #MODE_HEADER} header or
 * {@code timeservice.cloudtasks.mode}. A patch of an existing queue, pause and resume are a change of the live clock
 * ({@link ClockChange}).
 */
@RestController
class CloudTasksQueueController {

    static final String MODE_HEADER = "TimeService-Clock-Mode";
    private static final String QUEUES = "/v2/projects/{project}/locations/{location}/queues";
    private static final int MAX_PAGE = 1_000;

    private final ClockStore clocks;
    private final ClockSettings.Mode defaultMode;

    CloudTasksQueueController(ClockStore clocks, CloudTasksProperties properties) {
        this.clocks = clocks;
        this.defaultMode = properties.mode();
    }

    @PostMapping(QUEUES)
    ResponseEntity<Object> create(@PathVariable String project, @PathVariable String location,
                                  @RequestHeader(name = MODE_HEADER, required = false) String mode,
                                  @RequestBody(required = false) byte[] body) {
        return answer(() -> {
            JsonNode queue = CloudTasksJson.object(body);
            QueueName name = nameOf(project, location, queue);
            QueueConfig config = CloudTasksJson.queueConfig(queue, QueueConfig.DEFAULT);
            ClockSettings settings = config.clockSettings(mode(mode));
            if (exists(name)) {
                throw new CloudTasksError(CloudTasksError.Status.ALREADY_EXISTS, "queue " + name.path()
                        + " exists already");
            }
            ClockView.Created made = clocks.create(name.clock(), System.currentTimeMillis(), settings);
            if (!made.created()) {
                throw new CloudTasksError(CloudTasksError.Status.ALREADY_EXISTS, "queue " + name.path()
                        + " exists already");
            }
            return CloudTasksJson.queue(name, config, false);
        });
    }

    @GetMapping(QUEUES)
    ResponseEntity<Object> list(@PathVariable String project, @PathVariable String location,
                                @RequestParam(required = false) Integer pageSize,
                                @RequestParam(required = false) String pageToken,
                                @RequestParam(required = false) String filter) {
        return answer(() -> {
            if (filter != null && !filter.isEmpty()) {
                throw CloudTasksError.unimplemented("filter on a queue listing");
            }
            int size = pageSize == null || pageSize == 0 ? MAX_PAGE : pageSize;
            if (size < 0 || size > MAX_PAGE) {
                throw new CloudTasksError(CloudTasksError.Status.INVALID_ARGUMENT, "pageSize must be 0 to "
                        + MAX_PAGE + ": " + pageSize);
            }
            String prefix = CloudTasksRules.clockPrefix(project, location);
            String after = pageToken == null || pageToken.isEmpty() ? prefix : pageToken;
            if (!after.startsWith(prefix)) {
                throw new CloudTasksError(CloudTasksError.Status.INVALID_ARGUMENT, "pageToken is not one this"
                        + " listing gave: " + pageToken);
            }
            ObjectNode page = JsonMapper.shared().createObjectNode();
            ArrayNode queues = page.putArray("queues");
            List<ClockView> views = clocks.list(size + 1, after);
            String last = null;
            int count = 0;
            for (ClockView view : views) {
                QueueName name = QueueName.ofClock(view.name());
                QueueConfig config = QueueConfig.of(view.settings());
                if (!view.name().startsWith(prefix)) {
                    break;
                }
                if (name == null || config == null) {
                    continue; // a clock made by hand under a queue's name
                }
                if (count == size) {
                    page.put("nextPageToken", last);
                    break;
                }
                queues.add(CloudTasksJson.queue(name, config, view.settings().paused()));
                last = view.name();
                count++;
            }
            if (queues.isEmpty()) {
                page.remove("queues");
            }
            return page;
        });
    }

    @GetMapping(QUEUES + "/{queue}")
    ResponseEntity<Object> get(@PathVariable String project, @PathVariable String location,
                               @PathVariable String queue) {
        return answer(() -> {
            QueueName name = new QueueName(project, location, queue);
            return queueOf(name, settingsOf(name));
        });
    }

    /**
     * A patch of an existing queue changes its clock's retry policy and clock-wide limits at once ({@link ClockChange}:
     * the next attempt and the next claim follow them); one that changes nothing answers the queue; one of a missing
     * queue creates it, as Cloud Tasks does.
     */
    @PatchMapping(QUEUES + "/{queue}")
    ResponseEntity<Object> patch(@PathVariable String project, @PathVariable String location,
                                 @PathVariable String queue, @RequestParam(required = false) String updateMask,
                                 @RequestHeader(name = MODE_HEADER, required = false) String mode,
                                 @RequestBody(required = false) byte[] body) {
        return answer(() -> {
            QueueName name = new QueueName(project, location, queue);
            JsonNode given = CloudTasksJson.object(body);
            if (given.hasNonNull("name") && !CloudTasksJson.text(given, "name").equals(name.path())) {
                throw new CloudTasksError(CloudTasksError.Status.INVALID_ARGUMENT, "queue.name must be "
                        + name.path());
            }
            if (!exists(name)) {
                QueueConfig config = CloudTasksJson.queueConfig(given, QueueConfig.DEFAULT);
                clocks.create(name.clock(), System.currentTimeMillis(), config.clockSettings(mode(mode)));
                return CloudTasksJson.queue(name, config, false);
            }
            ClockSettings settings = settingsOf(name);
            QueueConfig current = QueueConfig.of(settings);
            QueueConfig patched = CloudTasksJson.queueConfig(masked(given, updateMask), current);
            if (patched.equals(current)) {
                return CloudTasksJson.queue(name, current, settings.paused());
            }
            if (settings.flow() == null) {
                throw new CloudTasksError(CloudTasksError.Status.FAILED_PRECONDITION, "queue " + name.path() + " was"
                        + " made before queues could be updated (its clock has no flow control): delete it and create"
                        + " it again");
            }
            return queueOf(name, clocks.change(name.clock(), patched.change()).settings());
        });
    }

    @DeleteMapping(QUEUES + "/{queue}")
    ResponseEntity<Object> delete(@PathVariable String project, @PathVariable String location,
                                  @PathVariable String queue) {
        return answer(() -> {
            QueueName name = new QueueName(project, location, queue);
            settingsOf(name);
            clocks.delete(name.clock());
            return JsonMapper.shared().createObjectNode();
        });
    }

    /**
     * {@code :purge} (every task goes: the clock is made again at its time), {@code :pause}, {@code :resume}; and the
     * patch of Java's HTTP/JSON transport, which sends PATCH as POST with {@code X-HTTP-Method-Override: PATCH}.
     */
    @PostMapping(QUEUES + "/{queue}")
    ResponseEntity<Object> verb(@PathVariable String project, @PathVariable String location,
                                @PathVariable("queue") String queueAndVerb,
                                @RequestHeader(name = "X-HTTP-Method-Override", required = false) String override,
                                @RequestParam(required = false) String updateMask,
                                @RequestHeader(name = MODE_HEADER, required = false) String mode,
                                @RequestBody(required = false) byte[] body) {
        if ("PATCH".equalsIgnoreCase(override) && queueAndVerb.indexOf(':') < 0) {
            return patch(project, location, queueAndVerb, updateMask, mode, body);
        }
        return answer(() -> {
            int colon = queueAndVerb.lastIndexOf(':');
            String verb = colon < 0 ? "" : queueAndVerb.substring(colon + 1);
            QueueName name = new QueueName(project, location, colon < 0 ? queueAndVerb
                    : queueAndVerb.substring(0, colon));
            CloudTasksJson.object(body);
            ClockSettings settings = settingsOf(name);
            switch (verb) {
                case "purge" -> {
                    ClockView view = clocks.get(name.clock());
                    clocks.delete(name.clock());
                    clocks.create(name.clock(), view.status().now(), view.settings()); // paused stays paused
                }
                case "pause", "resume" -> settings = clocks.change(name.clock(),
                        ClockChange.pause(verb.equals("pause"))).settings();
                default -> throw CloudTasksError.notFound("the queue method :" + verb);
            }
            return queueOf(name, settings);
        });
    }

    private static QueueName nameOf(String project, String location, JsonNode queue) {
        String prefix = CloudTasksRules.parent(project, location) + "/queues/";
        String path = queue.hasNonNull("name") ? CloudTasksJson.text(queue, "name") : "";
        if (!path.startsWith(prefix)) {
            throw new CloudTasksError(CloudTasksError.Status.INVALID_ARGUMENT, "queue.name must be " + prefix
                    + "QUEUE_ID: " + path);
        }
        return new QueueName(project, location, path.substring(prefix.length()));
    }

    /**
     * The members of {@code given} that {@code updateMask} names (all when it is absent), as a Queue. A path may be
     * written in the proto's snake_case ({@code retry_config.max_attempts}, as Node's SDK sends it in its REST mode) or
     * in JSON's lowerCamelCase (as Java's sends it).
     */
    private static JsonNode masked(JsonNode given, String updateMask) {
        if (updateMask == null || updateMask.isEmpty()) {
            return given;
        }
        ObjectNode masked = JsonMapper.shared().createObjectNode();
        for (String path : updateMask.split(",")) {
            String[] parts = camelCase(path.trim()).split("\\.");
            JsonNode value = given.path(parts[0]);
            if (parts.length == 2) {
                value = value.path(parts[1]);
            }
            if (value.isMissingNode()) {
                continue;
            }
            ObjectNode into = parts.length == 2 && !parts[0].equals("name")
                    ? (masked.has(parts[0]) ? (ObjectNode) masked.get(parts[0]) : masked.putObject(parts[0]))
                    : masked;
            into.set(parts[parts.length - 1], value);
        }
        return masked;
    }

    /** {@code retry_config.max_attempts} as {@code retryConfig.maxAttempts}; a camelCase path as it is. */
    private static String camelCase(String path) {
        StringBuilder camel = new StringBuilder(path.length());
        boolean upper = false;
        for (char c : path.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                camel.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return camel.toString();
    }

    private ClockSettings.Mode mode(String header) {
        if (header == null) {
            return defaultMode;
        }
        return switch (header.trim().toLowerCase(Locale.ROOT)) {
            case "virtual" -> ClockSettings.Mode.VIRTUAL;
            case "system" -> ClockSettings.Mode.SYSTEM;
            default -> throw new CloudTasksError(CloudTasksError.Status.INVALID_ARGUMENT, MODE_HEADER
                    + " must be virtual or system: " + header);
        };
    }

    private boolean exists(QueueName name) {
        try {
            clocks.get(name.clock());
            return true;
        } catch (ProblemException absent) {
            if (absent.code() != ErrorCode.CLOCK_NOT_FOUND) {
                throw absent;
            }
            return false;
        }
    }

    /** The settings of the queue's clock; NOT_FOUND when its clock is missing, FAILED_PRECONDITION when no queue's. */
    private ClockSettings settingsOf(QueueName name) {
        ClockSettings settings = clocks.get(name.clock()).settings();
        if (QueueConfig.of(settings) == null) {
            throw new CloudTasksError(CloudTasksError.Status.FAILED_PRECONDITION, "clock " + name.clock()
                    + " exists but was not made as a queue (docs/DROP-IN.md)");
        }
        return settings;
    }

    private static Object queueOf(QueueName name, ClockSettings settings) {
        return CloudTasksJson.queue(name, QueueConfig.of(settings), settings.paused());
    }

    /** The body {@code call} makes, or Google's error for its refusal. */
    static ResponseEntity<Object> answer(Supplier<Object> call) {
        try {
            return CloudTasksJson.ok(call.get());
        } catch (ProblemException | CloudTasksError refused) {
            return CloudTasksJson.refused(refused);
        }
    }
}
