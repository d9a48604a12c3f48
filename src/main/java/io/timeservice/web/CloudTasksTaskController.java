package io.timeservice.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.model.ClockView;
import io.timeservice.model.CloudTask;
import io.timeservice.model.CloudTasksRules;
import io.timeservice.model.CloudTasksRules.QueueConfig;
import io.timeservice.model.CloudTasksRules.QueueName;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.PushTargetGuard;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.ClockStore;
import io.timeservice.store.DeliveryStore;
import io.timeservice.store.TimerStore;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Cloud Tasks v2's task calls over HTTP/JSON (issue 47, docs/DROP-IN.md). A task is a timer of its queue's clock, its
 * id the task id and its payload the HTTP request ({@link CloudTask}); once it fired it is the delivery the pusher
 * sends and retries. The clock's dedupe window keeps a task's name for an hour after it ran or was deleted, so a
 * create of that name is ALREADY_EXISTS, as for a pending one.
 */
@RestController
class CloudTasksTaskController {

    private static final String TASKS = "/v2/projects/{project}/locations/{location}/queues/{queue}/tasks";
    private static final int MAX_PAGE = 1_000;
    /** How far a task listing pages: pending timers are read from the first in firing order. */
    private static final int MAX_LISTED = 10_000;
    private static final List<Delivery.State> LIVE = List.of(Delivery.State.IN_FLIGHT, Delivery.State.READY,
            Delivery.State.WAITING);

    private final ClockStore clocks;
    private final TimerStore timers;
    private final DeliveryStore deliveries;
    private final PushTargetGuard targets;
    private final CloudTask.Codec codec;
    private final int maxPayloadBytes;

    CloudTasksTaskController(ClockStore clocks, TimerStore timers, DeliveryStore deliveries,
                             PushTargetGuard targets, CloudTask.Codec codec, TimeServiceProperties properties) {
        this.clocks = clocks;
        this.timers = timers;
        this.deliveries = deliveries;
        this.targets = targets;
        this.codec = codec;
        this.maxPayloadBytes = properties.limits().maxPayloadBytes();
    }

    @PostMapping(TASKS)
    ResponseEntity<Object> create(@PathVariable String project, @PathVariable String location,
                                  @PathVariable String queue, @RequestBody(required = false) byte[] body) {
        return CloudTasksQueueController.answer(() -> {
            QueueName name = queueOf(project, location, queue);
            JsonNode request = CloudTasksJson.object(body);
            for (String member : request.propertyNames()) {
                if (!member.equals("task") && !member.equals("responseView")) {
                    throw new CloudTasksError(CloudTasksError.Status.INVALID_ARGUMENT, member
                            + " is not a member of a CreateTask request");
                }
            }
            boolean full = CloudTasksJson.fullView(request.path("responseView"));
            CloudTasksJson.NewTask given = CloudTasksJson.newTask(request.path("task"), name);
            PushTarget target = new PushTarget(given.url(), PushTarget.MAX_TIMEOUT_MILLIS, 1,
                    withoutContentType(given), List.of()); // checks the URL and headers as a push target's
            targets.requireAllowed(target);
            String id = given.id() != null ? given.id() : Long.toUnsignedString(UUID.randomUUID()
                    .getMostSignificantBits() >>> 1);
            ClockView clock = clocks.get(name.clock());
            long now = clock.status().now();
            CloudTask task = new CloudTask(target.url(), given.method(), given.headers(), given.body(),
                    given.deadlineMillis(), now);
            String payload = codec.write(task);
            int bytes = payload.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > maxPayloadBytes) {
                throw new CloudTasksError(CloudTasksError.Status.INVALID_ARGUMENT, "the task is " + bytes
                        + " bytes as its timer's payload (body in base64, URL and headers); the limit is "
                        + maxPayloadBytes + " (timeservice.limits.max-payload-bytes)");
            }
            Due due = given.scheduleTime() == null ? Due.after(0) : Due.at(given.scheduleTime());
            Timer timer;
            try {
                timer = timers.add(name.clock(), id, due, 0, payload, Trace.NONE);
            } catch (ProblemException duplicate) {
                if (duplicate.code() == ErrorCode.DUPLICATE_ID) {
                    throw new CloudTasksError(CloudTasksError.Status.ALREADY_EXISTS, "task " + name.path()
                            + "/tasks/" + id + " exists, or ran or was deleted within the last hour");
                }
                throw duplicate;
            }
            return CloudTasksJson.task(name, id, task, timer.fireTime(), 0, full);
        });
    }

    @GetMapping(TASKS)
    ResponseEntity<Object> list(@PathVariable String project, @PathVariable String location,
                                @PathVariable String queue, @RequestParam(required = false) String responseView,
                                @RequestParam(required = false) Integer pageSize,
                                @RequestParam(required = false) String pageToken) {
        return CloudTasksQueueController.answer(() -> {
            QueueName name = queueOf(project, location, queue);
            boolean full = CloudTasksJson.fullView(responseView);
            int size = pageSize == null || pageSize == 0 ? MAX_PAGE : pageSize;
            if (size < 0 || size > MAX_PAGE) {
                throw new CloudTasksError(CloudTasksError.Status.INVALID_ARGUMENT, "pageSize must be 0 to "
                        + MAX_PAGE + ": " + pageSize);
            }
            int offset = offsetOf(pageToken);
            int wanted = Math.min(offset + size + 1, MAX_LISTED);
            List<ObjectNode> all = new ArrayList<>();
            for (Delivery.State state : LIVE) {
                for (Delivery delivery : deliveries.list(name.clock(), DeliveryFilter.all(state), wanted, 0)) {
                    ObjectNode task = taskOf(name, delivery, full);
                    if (task != null) {
                        all.add(task);
                    }
                }
            }
            for (Timer timer : timers.firstN(name.clock(), wanted).timers()) {
                ObjectNode task = taskOf(name, timer, full);
                if (task != null) {
                    all.add(task);
                }
            }
            ObjectNode page = JsonMapper.shared().createObjectNode();
            if (offset < all.size()) {
                ArrayNode tasks = page.putArray("tasks");
                all.subList(offset, Math.min(all.size(), offset + size)).forEach(tasks::add);
            }
            if (all.size() > offset + size && offset + size < MAX_LISTED) {
                page.put("nextPageToken", Integer.toString(offset + size));
            }
            return page;
        });
    }

    @GetMapping(TASKS + "/{task}")
    ResponseEntity<Object> get(@PathVariable String project, @PathVariable String location,
                               @PathVariable String queue, @PathVariable String task,
                               @RequestParam(required = false) String responseView) {
        return CloudTasksQueueController.answer(() -> {
            QueueName name = queueOf(project, location, queue);
            return find(name, CloudTasksRules.requireTaskId(task), CloudTasksJson.fullView(responseView));
        });
    }

    @DeleteMapping(TASKS + "/{task}")
    ResponseEntity<Object> delete(@PathVariable String project, @PathVariable String location,
                                  @PathVariable String queue, @PathVariable String task) {
        return CloudTasksQueueController.answer(() -> {
            QueueName name = queueOf(project, location, queue);
            String id = CloudTasksRules.requireTaskId(task);
            try {
                timers.cancel(name.clock(), id, Precondition.NONE, Trace.NONE);
            } catch (ProblemException absent) {
                throw notPending(name, id, absent, "delete");
            }
            return JsonMapper.shared().createObjectNode();
        });
    }

    /** {@code :run}: a pending task is due now (a virtual clock fires it at once, without moving). */
    @PostMapping(TASKS + "/{task}")
    ResponseEntity<Object> run(@PathVariable String project, @PathVariable String location,
                               @PathVariable String queue, @PathVariable("task") String taskAndVerb,
                               @RequestBody(required = false) byte[] body) {
        return CloudTasksQueueController.answer(() -> {
            QueueName name = queueOf(project, location, queue);
            if (!taskAndVerb.endsWith(":run")) {
                throw CloudTasksError.notFound("the task method " + taskAndVerb);
            }
            String id = CloudTasksRules.requireTaskId(taskAndVerb.substring(0, taskAndVerb.length() - 4));
            boolean full = CloudTasksJson.fullView(CloudTasksJson.object(body).path("responseView"));
            Timer timer;
            try {
                timer = timers.edit(name.clock(), id, Due.after(0), null, Precondition.NONE, Trace.NONE);
            } catch (ProblemException absent) {
                throw notPending(name, id, absent, "run");
            }
            ObjectNode shown = taskOf(name, timer, full);
            if (!clocks.get(name.clock()).settings().firesByItself()) {
                timers.advance(name.clock(), 0L, null, 1, Trace.NONE);
            }
            return shown;
        });
    }

    /**
     * The refusal of {@code verb} for a task that is not pending: NOT_FOUND when it is nowhere, FAILED_PRECONDITION
     * when it is being dispatched or retried (its delivery cannot be deleted or run early), else {@code absent} itself.
     */
    private RuntimeException notPending(QueueName name, String id, ProblemException absent, String verb) {
        if (absent.code() != ErrorCode.TIMER_NOT_FOUND) {
            return absent;
        }
        find(name, id, false); // NOT_FOUND, unless it is being dispatched
        return new CloudTasksError(CloudTasksError.Status.FAILED_PRECONDITION, "task " + id + " is being dispatched"
                + " or retried; TimeService cannot " + verb + " it then (docs/DROP-IN.md)");
    }

    /** The task {@code id}: pending, or its delivery on its way; NOT_FOUND otherwise. */
    private ObjectNode find(QueueName name, String id, boolean full) {
        try {
            ObjectNode task = taskOf(name, timers.get(name.clock(), id), full);
            if (task != null) {
                return task;
            }
        } catch (ProblemException absent) {
            if (absent.code() != ErrorCode.TIMER_NOT_FOUND) {
                throw absent;
            }
        }
        for (Delivery.State state : LIVE) {
            for (Delivery delivery : deliveries.list(name.clock(), new DeliveryFilter(state, id, null, null), 10,
                    0)) {
                ObjectNode task = delivery.id().equals(id) ? taskOf(name, delivery, full) : null;
                if (task != null) {
                    return task;
                }
            }
        }
        throw CloudTasksError.notFound("task " + name.path() + "/tasks/" + id);
    }

    private ObjectNode taskOf(QueueName name, Timer timer, boolean full) {
        CloudTask task = codec.read(timer.payload());
        return task == null ? null : CloudTasksJson.task(name, timer.id(), task, timer.fireTime(), 0, full);
    }

    private ObjectNode taskOf(QueueName name, Delivery delivery, boolean full) {
        CloudTask task = codec.read(delivery.payload());
        if (task == null) {
            return null;
        }
        boolean inFlight = delivery.state() == Delivery.State.IN_FLIGHT;
        long next = delivery.state() == Delivery.State.WAITING ? delivery.retryAt() : delivery.readyAt();
        return CloudTasksJson.task(name, delivery.id(), task, next,
                inFlight ? delivery.attempt() : delivery.attempt() - 1, full);
    }

    /** The queue; NOT_FOUND when missing. */
    private QueueName queueOf(String project, String location, String queue) {
        QueueName name = new QueueName(project, location, queue);
        if (QueueConfig.of(clocks.get(name.clock()).settings()) == null) {
            throw CloudTasksError.notFound("queue " + name.path());
        }
        return name;
    }

    private static int offsetOf(String pageToken) {
        if (pageToken == null || pageToken.isEmpty()) {
            return 0;
        }
        try {
            int offset = Integer.parseInt(pageToken);
            if (offset >= 0 && offset < MAX_LISTED) {
                return offset;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new CloudTasksError(CloudTasksError.Status.INVALID_ARGUMENT, "pageToken is not one this listing"
                + " gave: " + pageToken);
    }

    /** The task's headers a {@link PushTarget} checks: all but Content-Type, which is sent as the body's. */
    private static java.util.Map<String, String> withoutContentType(CloudTasksJson.NewTask task) {
        java.util.Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.putAll(task.headers());
        headers.remove("Content-Type");
        return headers;
    }
}
