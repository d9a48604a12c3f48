package io.timeservice.client;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link StubService} for the wire-format tests: it answers scripted statuses and bodies in order (a 4xx as
 * problem+json) and records each request as {@code "METHOD /path?query body"}.
 */
final class ScriptedService implements AutoCloseable {

    private final Deque<StubService.Answer> answers = new ArrayDeque<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final StubService stub = StubService.answering(request -> {
        requests.add(request.method() + " " + request.target() + " " + request.body());
        return answers.poll();
    });

    /** The next request is answered {@code status} with {@code body} (empty: none). */
    void answer(int status, String body) {
        answers.add(body.isEmpty() ? new StubService.Answer(status, null, null) : StubService.Answer.json(status, body));
    }

    /** The requests so far, in order. */
    List<String> requests() {
        return requests;
    }

    /** A client of this stub. */
    TimeServiceClient client() {
        return TimeServiceClient.connect(stub.uri());
    }

    @Override
    public void close() {
        stub.close();
    }
}
