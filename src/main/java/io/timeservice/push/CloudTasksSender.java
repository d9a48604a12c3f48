package io.timeservice.push;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.timeservice.model.CloudTask;
import io.timeservice.model.CloudTasksRules;
import io.timeservice.model.Delivery;
import io.timeservice.model.PushTarget;

/**
 * Sends Cloud Tasks tasks (issue 47) as Cloud Tasks dispatches them, and hands every other push to {@code next}. A
 * queue's clock pushes to the placeholder {@link CloudTasksRules#PLACEHOLDER_HOST}; its timers' payloads are the tasks
 * ({@link CloudTask.Codec}). Such a push goes to the task's URL with its method, headers and body, plus the
 * {@code X-CloudTasks-*} headers; the answer settles it as any push's (2xx done, else retried by the queue's retry
 * config, dead after its last attempt). Thread-safe.
 *
 * <p>{@code X-CloudTasks-TaskPreviousResponse} and {@code -TaskRetryReason} come from {@link PreviousAttempts}, which
 * this process remembers: after a restart, or when another instance made the previous attempt, they are left out.
 */
public final class CloudTasksSender extends ShapingSender {

    private final PushClient client;
    private final CloudTask.Codec tasks;
    private final PreviousAttempts previous = new PreviousAttempts(10_000);

    public CloudTasksSender(PushSender next, PushClient client, CloudTask.Codec tasks) {
        super(next);
        this.client = client;
        this.tasks = tasks;
    }

    @Override
    boolean shapes(PushTarget target) {
        return CloudTasksRules.isQueueTarget(target);
    }

    @Override
    CompletableFuture<PushOutcome> send(String clock, Delivery delivery, Map<String, String> traceHeaders) {
        CloudTask task = tasks.read(delivery.payload());
        CloudTasksRules.QueueName queue = CloudTasksRules.QueueName.ofClock(clock);
        if (task == null || queue == null) {
            return CompletableFuture.completedFuture(PushOutcome.failed(PushOutcome.Kind.PROTOCOL_ERROR,
                    "not a Cloud Tasks task: a timer on a queue's clock without its cloudtasks payload"));
        }
        Map<String, String> headers = new LinkedHashMap<>(task.headers());
        headers.putIfAbsent("User-Agent", "Google-Cloud-Tasks");
        headers.put("X-CloudTasks-QueueName", queue.queue());
        headers.put("X-CloudTasks-TaskName", delivery.id());
        headers.put("X-CloudTasks-TaskRetryCount", Integer.toString(delivery.attempt() - 1));
        headers.put("X-CloudTasks-TaskExecutionCount", Integer.toString(delivery.attempt() - 1));
        headers.put("X-CloudTasks-TaskETA", eta(delivery.fireTime()));
        PushOutcome last = delivery.attempt() > 1 ? previous.take(delivery.sequence(), delivery.attempt() - 1) : null;
        if (last != null) {
            if (last.status() > 0) {
                headers.put("X-CloudTasks-TaskPreviousResponse", Integer.toString(last.status()));
            }
            headers.put("X-CloudTasks-TaskRetryReason", last.detail());
        }
        headers.putAll(traceHeaders);
        return client.send(task.url(), task.method(), headers, task.body(), task.attemptTimeoutMillis())
                .whenComplete((outcome, never) -> {
                    if (outcome != null && !outcome.acknowledged()) {
                        previous.put(delivery.sequence(), delivery.attempt(), outcome);
                    }
                });
    }

    /** Seconds since the epoch with microseconds, as Cloud Tasks writes {@code X-CloudTasks-TaskETA}. */
    static String eta(long millis) {
        return Math.floorDiv(millis, 1000) + "." + String.format("%03d000", Math.floorMod(millis, 1000));
    }
}
