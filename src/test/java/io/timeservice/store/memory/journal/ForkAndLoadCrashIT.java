package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import io.timeservice.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * SIGKILL right after a fork and loads were acknowledged (schedules among what they copy), and while a large load is
 * still arriving: after a restart on the same data directory, every acknowledged copy is there whole (it saves the
 * same snapshot as what it copied, but for its name), and the load in flight is there whole or not at all, never
 * half; if its 2xx arrived, it is there. The snapshots themselves are the oracle.
 */
class ForkAndLoadCrashIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A large document: several megabytes, so the kill can land while it is still being read or journaled. */
    private static final int LARGE = 60_000;

    @TempDir
    Path dataDir;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void sigkillRightAfterAForkAndALoad_keepsBoth_andALoadInFlightIsWholeOrAbsent() throws Exception {
        JsonNode source;
        JsonNode fixture = largeDocument("fixture");
        boolean acknowledged;
        try (ServiceProcess service = ServiceProcess.startWithJournal(dataDir)) {
            String base = service.baseUrl();
            buildSource(base);
            source = snapshot(base, "src");
            assertThat(source.get("schedules")).as("the source's schedules, saved").hasSize(2);
            assertThat(send(base, "PUT", "/clocks/loaded/snapshot", fixture.toString()).statusCode()).isEqualTo(201);
            assertThat(send(base, "PUT", "/clocks/reloaded/snapshot", source.toString()).statusCode()).isEqualTo(201);
            assertThat(send(base, "PUT", "/clocks/copy", "{\"copyOf\":\"src\"}").statusCode()).isEqualTo(201);
            assertThat(service.kill()).isEqualTo(137);
        }
        try (ServiceProcess restarted = ServiceProcess.startWithJournal(dataDir)) {
            String base = restarted.baseUrl();
            assertThat(withoutName(snapshot(base, "copy"))).isEqualTo(withoutName(source));
            assertThat(withoutName(snapshot(base, "loaded"))).isEqualTo(withoutName(fixture));
            assertThat(withoutName(snapshot(base, "reloaded"))).isEqualTo(withoutName(source));

            CountDownLatch bodySent = new CountDownLatch(1);
            CompletableFuture<HttpResponse<String>> inFlight = client.sendAsync(HttpRequest.newBuilder(
                            URI.create(base + "/clocks/in-flight/snapshot")).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json")
                    .PUT(signalling(fixture.toString(), bodySent)).build(), HttpResponse.BodyHandlers.ofString());
            // killed once the whole body is on its way: while the service reads, checks or journals it, or after
            assertThat(bodySent.await(1, TimeUnit.MINUTES)).isTrue();
            assertThat(restarted.kill()).isEqualTo(137);
            acknowledged = inFlight.handle((answer, failed) -> answer != null && answer.statusCode() == 201).join();
        }
        try (ServiceProcess again = ServiceProcess.startWithJournal(dataDir)) {
            String base = again.baseUrl();
            int status = send(base, "GET", "/clocks/in-flight", null).statusCode();
            if (acknowledged || status == 200) {
                assertThat(withoutName(snapshot(base, "in-flight"))).isEqualTo(withoutName(fixture));
            } else {
                assertThat(status).isEqualTo(404);
            }
            assertThat(withoutName(snapshot(base, "copy"))).isEqualTo(withoutName(source));
            assertThat(withoutName(snapshot(base, "loaded"))).isEqualTo(withoutName(fixture));
        }
    }

    /** {@code text} as a request body that counts {@code sent} down once the client has taken all of it. */
    private static HttpRequest.BodyPublisher signalling(String text, CountDownLatch sent) {
        HttpRequest.BodyPublisher whole = HttpRequest.BodyPublishers.ofString(text);
        return HttpRequest.BodyPublishers.fromPublisher(subscriber -> whole.subscribe(
                new Flow.Subscriber<ByteBuffer>() {
                    @Override
                    public void onSubscribe(Flow.Subscription subscription) {
                        subscriber.onSubscribe(subscription);
                    }

                    @Override
                    public void onNext(ByteBuffer item) {
                        subscriber.onNext(item);
                    }

                    @Override
                    public void onError(Throwable throwable) {
                        subscriber.onError(throwable);
                    }

                    @Override
                    public void onComplete() {
                        subscriber.onComplete();
                        sent.countDown();
                    }
                }), whole.contentLength());
    }

    /** A queueing clock with timers, two schedules, deliveries ready, in flight and waiting. */
    private void buildSource(String base) throws IOException, InterruptedException {
        assertThat(send(base, "PUT", "/clocks/src", "{\"delivery\":\"queue\",\"retry\":{\"jitter\":0}}")
                .statusCode()).isEqualTo(201);
        assertThat(send(base, "PUT", "/clocks/src/schedules/nightly",
                "{\"cron\":\"30 2 * * *\",\"zone\":\"Europe/Berlin\",\"payload\":{\"job\":\"report\"}}").statusCode())
                .isEqualTo(201);
        assertThat(send(base, "PUT", "/clocks/src/schedules/pulse", "{\"every\":1000,\"limit\":5,\"priority\":1}")
                .statusCode()).isEqualTo(201);
        for (int batch = 0; batch < 5; batch++) {
            StringBuilder ops = new StringBuilder("{\"ops\":[");
            for (int i = 0; i < 1000; i++) {
                int n = batch * 1000 + i;
                ops.append(i == 0 ? "" : ",").append("{\"op\":\"add\",\"id\":\"t").append(n).append("\",\"delay\":")
                        .append(1 + n % 5000).append(",\"payload\":{\"n\":").append(n).append("}}");
            }
            assertThat(send(base, "POST", "/clocks/src/batch", ops.append("]}").toString()).statusCode())
                    .isEqualTo(200);
        }
        assertThat(send(base, "POST", "/clocks/src/advance", "{\"by\":20}").statusCode()).isEqualTo(200);
        HttpResponse<String> claimed = send(base, "POST", "/clocks/src/deliveries/claim",
                "{\"max\":5,\"lease\":60000}");
        JsonNode first = JSON.readTree(claimed.body()).at("/deliveries/0");
        assertThat(send(base, "POST", "/clocks/src/deliveries/" + first.get("id").asString() + "/nack",
                "{\"claim\":\"" + first.get("claim").asString() + "\"}").statusCode()).isEqualTo(200);
    }

    private static JsonNode largeDocument(String name) {
        StringBuilder document = new StringBuilder("{\"format\":1,\"clock\":{\"name\":\"" + name
                + "\",\"now\":500},\"timers\":[");
        for (int i = 0; i < LARGE; i++) {
            document.append(i == 0 ? "" : ",").append("{\"id\":\"timer-").append(i).append("\",\"fireTime\":")
                    .append(501 + i % 7000).append(",\"priority\":").append(i % 3).append(",\"sequence\":")
                    .append(i + 1).append(",\"payload\":{\"i\":").append(i).append("}}");
        }
        return JSON.readTree(document.append("]}").toString());
    }

    private JsonNode snapshot(String base, String clock) throws IOException, InterruptedException {
        HttpResponse<String> saved = send(base, "GET", "/clocks/" + clock + "/snapshot", null);
        assertThat(saved.statusCode()).as(clock).isEqualTo(200);
        return JSON.readTree(saved.body());
    }

    /** The document without its clock's name, with every member a save writes (the fixture's absent ones filled). */
    private static JsonNode withoutName(JsonNode document) {
        ObjectNode copy = (ObjectNode) document.deepCopy();
        ObjectNode clock = (ObjectNode) copy.get("clock");
        clock.remove("name");
        if (!clock.has("mode")) { // the hand-made fixture: as a save writes its defaults
            clock.put("mode", "virtual").put("delivery", "response");
            clock.set("retry", JSON.readTree("{\"maxAttempts\":10,\"initialBackoff\":1000,\"multiplier\":2.0,"
                    + "\"maxBackoff\":300000,\"jitter\":0.2}"));
            clock.put("nextSequence", LARGE + 1);
            for (JsonNode timer : copy.get("timers")) {
                ((ObjectNode) timer).put("version", 1).put("createdAt", 0);
            }
            copy.set("schedules", JSON.createArrayNode());
            copy.set("deliveries", JSON.createArrayNode());
        }
        return JSON.readTree(JSON.writeValueAsString(copy)); // members compared as a set, in any order
    }

    private HttpRequest request(String base, String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (body == null) {
            return request.method(method, HttpRequest.BodyPublishers.noBody()).build();
        }
        return request.header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private HttpResponse<String> send(String base, String method, String path, String body)
            throws IOException, InterruptedException {
        return client.send(request(base, method, path, body), HttpResponse.BodyHandlers.ofString());
    }
}
