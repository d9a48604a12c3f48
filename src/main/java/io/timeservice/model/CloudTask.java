package io.timeservice.model;

import java.util.Map;

/**
 * A Cloud Tasks task's HTTP request as its timer's payload holds it (issue 47): what the pusher sends when it fires.
 *
 * @param url                the target, a checked push target URL
 * @param method             the HTTP method ({@code httpRequest.httpMethod})
 * @param headers            the task's headers, {@code Content-Type} included
 * @param body               the body (sent raw; base64 only in the API's JSON)
 * @param dispatchDeadlineMillis the task's {@code dispatchDeadline} as given
 * @param createTime         when the task was created, in its queue's clock time
 */
public record CloudTask(String url, String method, Map<String, String> headers, byte[] body,
                        long dispatchDeadlineMillis, long createTime) {

    public CloudTask {
        headers = Map.copyOf(headers);
    }

    /** One attempt's timeout: the deadline, at most what a push attempt may take. */
    public long attemptTimeoutMillis() {
        return Math.min(dispatchDeadlineMillis, PushTarget.MAX_TIMEOUT_MILLIS);
    }

    /** Turns a task into a timer's payload (JSON text) and back; the web layer's JSON does it. */
    public interface Codec {

        String write(CloudTask task);

        /** The task in {@code payload}, or null when it holds none (a timer not added by a create call). */
        CloudTask read(String payload);
    }
}
