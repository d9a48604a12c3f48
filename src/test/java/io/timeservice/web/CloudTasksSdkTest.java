package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.StatusCode;
import com.google.cloud.tasks.v2.CloudTasksClient;
import com.google.cloud.tasks.v2.CloudTasksSettings;
import com.google.cloud.tasks.v2.HttpMethod;
import com.google.cloud.tasks.v2.LocationName;
import com.google.cloud.tasks.v2.Queue;
import com.google.cloud.tasks.v2.QueueName;
import com.google.cloud.tasks.v2.RetryConfig;
import com.google.cloud.tasks.v2.Task;
import com.google.cloud.tasks.v2.TaskName;
import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.timeservice.push.Receiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official Cloud Tasks SDKs, unchanged, against the service (issue 47): Java's {@code google-cloud-tasks} over its
 * HTTP/JSON transport (endpoint {@code http://127.0.0.1:<port>}, no credentials) and npm's {@code @google-cloud/tasks}
 * in its REST fallback mode ({@code src/test/node/cloudtasks-sdk.mjs}). Each creates a queue and tasks due in a day,
 * lists them, meets ALREADY_EXISTS for a second create of a name, then the test advances the queue's virtual clock
 * with TimeService's own API: the loopback target receives the request with its body and {@code X-CloudTasks-*}
 * headers, and a task answered 500 is retried by the queue's retryConfig until dead after its last attempt. Then a
 * live queue: paused (a task due now stays ready while the clock advances), resumed (it arrives), updated (a task
 * answered 500 is retried by the new retryConfig, the new rateLimits show in getQueue and on its clock), and a
 * maxRetryDuration that ends the retries of unlimited attempts.
 */
@TestPropertySource(properties = "timeservice.push.allow-private-targets=true")
class CloudTasksSdkTest extends RestTestSupport {

    private static final Path NODE_DIR = Path.of("src/test/node");
    private static final JsonMapper JSON = JsonMapper.shared();
    private static final long DAY = 86_400_000L;
    private Receiver receiver;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = new Receiver();
    }

    @AfterEach
    void stopReceiver() {
        deleteClocksButDefault();
        receiver.close();
    }

    private CloudTasksClient client() throws Exception {
        CloudTasksSettings settings = CloudTasksSettings.newHttpJsonBuilder()
                .setEndpoint("http://127.0.0.1:" + port)
                .setCredentialsProvider(NoCredentialsProvider.create()).build();
        return CloudTasksClient.create(settings);
    }

    private static Task task(TaskName name, String url, long scheduleMillis, String body) {
        return Task.newBuilder().setName(name.toString())
                .setScheduleTime(Timestamp.newBuilder().setSeconds(scheduleMillis / 1000))
                .setHttpRequest(com.google.cloud.tasks.v2.HttpRequest.newBuilder().setUrl(url)
                        .setHttpMethod(HttpMethod.POST).putHeaders("Content-Type", "application/json")
                        .setBody(ByteString.copyFromUtf8(body)))
                .build();
    }

    @Test
    void javaSdk_createsAQueueAndATaskDueTomorrow_thatArrivesOnceTheVirtualClockIsAdvancedADay() throws Exception {
        QueueName queueName = QueueName.of("sdk-project", "us-central1", "java");
        String clock = "ct~sdk-project~us-central1~java";
        try (CloudTasksClient client = client()) {
            Queue queue = client.createQueue(LocationName.of("sdk-project", "us-central1"), Queue.newBuilder()
                    .setName(queueName.toString()).setRetryConfig(RetryConfig.newBuilder().setMaxAttempts(3)
                            .setMinBackoff(com.google.protobuf.Duration.newBuilder().setSeconds(10))
                            .setMaxBackoff(com.google.protobuf.Duration.newBuilder().setSeconds(60)))
                    .build());
            assertThat(queue.getName()).isEqualTo(queueName.toString());
            assertThat(queue.getRetryConfig().getMaxAttempts()).isEqualTo(3);
            assertThat(client.getQueue(queueName).getRetryConfig().getMinBackoff().getSeconds()).isEqualTo(10);
            assertThat(client.updateQueue(queue, com.google.protobuf.FieldMask.newBuilder()
                    .addPaths("retry_config.max_attempts").build())).as("a patch that changes nothing").isEqualTo(queue);

            long tomorrow = given().get("/clocks/" + clock).jsonPath().getLong("now") + DAY;
            TaskName ok = TaskName.of("sdk-project", "us-central1", "java", "java-ok");
            TaskName flaky = TaskName.of("sdk-project", "us-central1", "java", "java-flaky");
            Task created = client.createTask(queueName, task(ok, receiver.url("/ok"), tomorrow, "{\"n\":1}"));
            assertThat(created.getName()).isEqualTo(ok.toString());
            assertThat(created.getScheduleTime().getSeconds()).isEqualTo(tomorrow / 1000);
            client.createTask(queueName, task(flaky, receiver.url("/flaky"), tomorrow, "{\"n\":2}"));

            List<String> listed = new ArrayList<>();
            client.listTasks(queueName).iterateAll().forEach(task -> listed.add(task.getName()));
            assertThat(listed).containsExactlyInAnyOrder(ok.toString(), flaky.toString());
            assertThatThrownBy(() -> client.createTask(queueName, task(ok, receiver.url("/ok"), tomorrow, "{}")))
                    .isInstanceOfSatisfying(ApiException.class, refused -> {
                        // the HTTP/JSON transport types errors by HTTP status: Google's 409 ALREADY_EXISTS is ABORTED
                        assertThat(refused.getStatusCode().getCode()).isEqualTo(StatusCode.Code.ABORTED);
                        assertThat(refused.getMessage()).contains("exists");
                    });

            receiver.answer(request -> Receiver.Answer.status(request.path().equals("/flaky") ? 500 : 200));
            json("{\"by\":" + DAY + "}").post("/clocks/" + clock + "/advance").then().statusCode(200);
            Map<String, Receiver.Request> first = new java.util.HashMap<>();
            for (int i = 0; i < 2; i++) {
                Receiver.Request request = receiver.next();
                first.put(request.path(), request);
            }
            Receiver.Request arrived = first.get("/ok");
            assertThat(arrived.body()).isEqualTo("{\"n\":1}");
            assertThat(arrived.header("Content-Type")).isEqualTo("application/json");
            assertThat(arrived.header("X-CloudTasks-QueueName")).isEqualTo("java");
            assertThat(arrived.header("X-CloudTasks-TaskName")).isEqualTo("java-ok");
            assertThat(arrived.header("X-CloudTasks-TaskRetryCount")).isEqualTo("0");
            assertThat(first.get("/flaky").header("X-CloudTasks-TaskName")).isEqualTo("java-flaky");

            awaitWaiting(clock, 1);
            json("{\"by\":10000}").post("/clocks/" + clock + "/advance").then().statusCode(200);
            Receiver.Request second = receiver.next();
            assertThat(second.path()).isEqualTo("/flaky");
            assertThat(second.header("X-CloudTasks-TaskRetryCount")).isEqualTo("1");
            assertThat(second.header("X-CloudTasks-TaskPreviousResponse")).isEqualTo("500");
            awaitWaiting(clock, 1);
            json("{\"by\":20000}").post("/clocks/" + clock + "/advance").then().statusCode(200);
            assertThat(receiver.next().header("X-CloudTasks-TaskRetryCount")).isEqualTo("2");
            awaitDead(clock, "java-flaky");
        }
    }

    @Test
    void nodeSdk_inRestFallbackMode_createsListsAndIsRefused_andItsTasksArriveAndRetry() throws Exception {
        assertThat(NODE_DIR.resolve("node_modules/@google-cloud/tasks"))
                .as("the official SDK, which ./test installs (npm ci in src/test/node)").isDirectory();
        Process node = new ProcessBuilder(System.getenv().getOrDefault("NODE_BINARY", "node"), "cloudtasks-sdk.mjs",
                Integer.toString(port), "node").directory(NODE_DIR.toFile()).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(),
                StandardCharsets.UTF_8)); Writer in = new OutputStreamWriter(node.getOutputStream(),
                StandardCharsets.UTF_8)) {
            String line = out.readLine();
            JsonNode made = JSON.readTree(line);
            String clock = made.path("clock").asString();
            assertThat(clock).as(line).isEqualTo("ct~sdk-project~us-central1~node");
            assertThat(made.path("listed").size()).as(line).isEqualTo(2);
            assertThat(made.path("duplicate").path("code").asInt()).as(line).isEqualTo(6); // ALREADY_EXISTS
            long due = made.at("/scheduleTime/seconds").asLong();
            assertThat(due * 1000).isGreaterThan(given().get("/clocks/" + clock).jsonPath().getLong("now"));

            json("{\"by\":" + DAY + "}").post("/clocks/" + clock + "/advance").then().statusCode(200);
            JsonNode a = JSON.readTree(out.readLine());
            JsonNode b = JSON.readTree(out.readLine());
            JsonNode ok = a.path("path").asString().equals("/ok") ? a : b;
            assertThat(ok.path("body").asString()).isEqualTo("{\"task\":\"node-ok\"}");
            assertThat(ok.path("contentType").asString()).isEqualTo("application/json");
            assertThat(ok.at("/headers/x-cloudtasks-queuename").asString()).isEqualTo("node");
            assertThat(ok.at("/headers/x-cloudtasks-taskname").asString()).isEqualTo("node-ok");
            assertThat(ok.at("/headers/x-cloudtasks-tasketa").asString()).startsWith(Long.toString(due));

            for (int retry = 1; retry <= 2; retry++) {
                awaitWaiting(clock, 1);
                json("{\"by\":" + 10_000 * (1L << (retry - 1)) + "}").post("/clocks/" + clock + "/advance")
                        .then().statusCode(200);
                JsonNode again = JSON.readTree(out.readLine());
                assertThat(again.path("path").asString()).isEqualTo("/flaky");
                assertThat(again.at("/headers/x-cloudtasks-taskretrycount").asString())
                        .isEqualTo(Integer.toString(retry));
            }
            awaitDead(clock, "node-flaky");
            in.write("exit\n");
            in.flush();
            assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(node.exitValue()).isZero();
        } finally {
            node.destroyForcibly();
        }
    }

    @Test
    void javaSdk_pausesAQueue_resumesIt_andUpdatesItsRetryConfigAndRateLimitsWhileItLives() throws Exception {
        QueueName queueName = QueueName.of("sdk-project", "us-central1", "java-live");
        String clock = "ct~sdk-project~us-central1~java-live";
        receiver.answer(request -> Receiver.Answer.status(request.path().equals("/ok") ? 200 : 500));
        try (CloudTasksClient client = client()) {
            Queue queue = client.createQueue(LocationName.of("sdk-project", "us-central1"), Queue.newBuilder()
                    .setName(queueName.toString()).setRetryConfig(RetryConfig.newBuilder().setMaxAttempts(2)
                            .setMinBackoff(seconds(10)).setMaxBackoff(seconds(10))).build());

            assertThat(client.pauseQueue(queueName).getState()).isEqualTo(Queue.State.PAUSED);
            assertThat(client.getQueue(queueName).getState()).isEqualTo(Queue.State.PAUSED);
            client.createTask(queueName, dueNow(queueName, "held", receiver.url("/ok")));
            json("{\"by\":1000}").post("/clocks/" + clock + "/advance").then().statusCode(200);
            given().get("/clocks/" + clock + "/deliveries").then().body("ready", org.hamcrest.Matchers.equalTo(1))
                    .body("inFlight", org.hamcrest.Matchers.equalTo(0));
            assertThat(receiver.nextWithin(200)).as("paused: the target receives nothing").isNull();
            assertThat(client.resumeQueue(queueName).getState()).isEqualTo(Queue.State.RUNNING);
            assertThat(receiver.next().header("X-CloudTasks-TaskName")).isEqualTo("held");

            Queue updated = client.updateQueue(queue.toBuilder().setRetryConfig(RetryConfig.newBuilder()
                            .setMaxAttempts(4).setMinBackoff(seconds(1)).setMaxBackoff(seconds(1)))
                    .setRateLimits(com.google.cloud.tasks.v2.RateLimits.newBuilder().setMaxConcurrentDispatches(7)
                            .setMaxDispatchesPerSecond(20)).build(), com.google.protobuf.FieldMask.newBuilder()
                    .addPaths("retry_config.max_attempts").addPaths("retry_config.min_backoff")
                    .addPaths("retry_config.max_backoff").addPaths("rate_limits.max_concurrent_dispatches")
                    .addPaths("rate_limits.max_dispatches_per_second").build());
            assertThat(updated.getRetryConfig().getMaxAttempts()).isEqualTo(4);
            Queue read = client.getQueue(queueName);
            assertThat(read.getRateLimits().getMaxConcurrentDispatches()).isEqualTo(7);
            assertThat(read.getRateLimits().getMaxDispatchesPerSecond()).isEqualTo(20.0);
            assertThat(read.getRetryConfig().getMinBackoff().getSeconds()).isEqualTo(1);
            given().get("/clocks/" + clock).then().body("clockConcurrency", org.hamcrest.Matchers.equalTo(7));

            client.createTask(queueName, dueNow(queueName, "flaky", receiver.url("/flaky")));
            assertThat(attemptsOneSecondApart(clock)).as("the new retryConfig: 4 attempts, 1 s apart").isEqualTo(4);
            awaitDead(clock, "flaky");

            client.updateQueue(queue.toBuilder().setRetryConfig(RetryConfig.newBuilder().setMaxAttempts(-1)
                    .setMaxRetryDuration(seconds(3)).setMinBackoff(seconds(1)).setMaxBackoff(seconds(1))).build(),
                    com.google.protobuf.FieldMask.newBuilder().addPaths("retry_config").build());
            assertThat(client.getQueue(queueName).getRetryConfig().getMaxRetryDuration().getSeconds()).isEqualTo(3);
            json("{}").post("/clocks/" + clock + "/deliveries/dead/delete").then().statusCode(200);
            client.createTask(queueName, dueNow(queueName, "aged", receiver.url("/aged")));
            assertThat(attemptsOneSecondApart(clock)).as("failed at 0, 1, 2 and 3 s: 3 s after it was due")
                    .isEqualTo(4);
            awaitDead(clock, "aged");
        }
    }

    @Test
    void nodeSdk_pausesAQueue_resumesIt_andUpdatesItsRetryConfigAndRateLimitsWhileItLives() throws Exception {
        Process node = new ProcessBuilder(System.getenv().getOrDefault("NODE_BINARY", "node"), "cloudtasks-sdk.mjs",
                Integer.toString(port), "node-live", "live").directory(NODE_DIR.toFile()).redirectErrorStream(true)
                .start();
        try (NodeLines lines = new NodeLines(node)) {
            String clock = lines.next().path("ready").asString();
            assertThat(clock).isEqualTo("ct~sdk-project~us-central1~node-live");

            assertThat(lines.call("pause").path("state").asString()).isEqualTo("PAUSED");
            lines.call("task held /ok");
            json("{\"by\":1000}").post("/clocks/" + clock + "/advance").then().statusCode(200);
            given().get("/clocks/" + clock + "/deliveries").then().body("ready", org.hamcrest.Matchers.equalTo(1))
                    .body("inFlight", org.hamcrest.Matchers.equalTo(0));
            assertThat(lines.call("resume").path("state").asString()).isEqualTo("RUNNING");
            assertThat(lines.request().at("/headers/x-cloudtasks-taskname").asString()).isEqualTo("held");

            JsonNode updated = lines.call("update");
            assertThat(updated.path("updated").asInt()).isEqualTo(4);
            assertThat(updated.at("/queue/rateLimits/maxConcurrentDispatches").asInt()).isEqualTo(7);
            assertThat(updated.at("/queue/rateLimits/maxDispatchesPerSecond").asDouble()).isEqualTo(20.0);
            assertThat(updated.at("/queue/retryConfig/maxBackoff/seconds").asString()).isEqualTo("1");
            lines.call("task flaky /flaky");
            assertThat(nodeAttemptsOneSecondApart(clock, lines)).as("the new retryConfig").isEqualTo(4);
            awaitDead(clock, "flaky");

            assertThat(lines.call("age").at("/queue/retryConfig/maxRetryDuration/seconds").asString())
                    .isEqualTo("3");
            json("{}").post("/clocks/" + clock + "/deliveries/dead/delete").then().statusCode(200);
            lines.call("task aged /aged");
            assertThat(nodeAttemptsOneSecondApart(clock, lines)).as("until 3 s after it was due").isEqualTo(4);
            awaitDead(clock, "aged");
            lines.exit();
        } finally {
            node.destroyForcibly();
        }
    }

    /** {@link #attemptsOneSecondApart} with the requests the Node side's target received. */
    private int nodeAttemptsOneSecondApart(String clock, NodeLines lines) throws Exception {
        json("{\"by\":0}").post("/clocks/" + clock + "/advance").then().statusCode(200);
        int attempts = 0;
        while (true) {
            JsonNode request = lines.request();
            attempts++;
            assertThat(request.at("/headers/x-cloudtasks-taskretrycount").asString())
                    .isEqualTo(Integer.toString(attempts - 1));
            if (settledAttempt(clock)) {
                return attempts;
            }
            json("{\"by\":1000}").post("/clocks/" + clock + "/advance").then().statusCode(200);
        }
    }

    /** Waits until the attempt in flight is settled: whether its task is dead (else it waits for a retry). */
    private boolean settledAttempt(String clock) {
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            io.restassured.path.json.JsonPath counts = given().get("/clocks/" + clock + "/deliveries").jsonPath();
            return counts.getInt("waiting") + counts.getInt("dead") == 1;
        });
        return given().get("/clocks/" + clock + "/deliveries").jsonPath().getInt("dead") == 1;
    }

    /**
     * The Node side's output lines in live mode: replies to commands (in order) and the requests its target received
     * (in order), which may come between them.
     */
    private static final class NodeLines implements AutoCloseable {
        private final Process node;
        private final BufferedReader out;
        private final Writer in;
        private final java.util.ArrayDeque<JsonNode> requests = new java.util.ArrayDeque<>();

        NodeLines(Process node) {
            this.node = node;
            this.out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
            this.in = new OutputStreamWriter(node.getOutputStream(), StandardCharsets.UTF_8);
        }

        JsonNode next() throws Exception {
            String line = out.readLine();
            assertThat(line).as("the Node side ended").isNotNull();
            JsonNode json = JSON.readTree(line);
            assertThat(json.has("error")).as(line).isFalse();
            return json;
        }

        /** Runs {@code command} and answers its reply. */
        JsonNode call(String command) throws Exception {
            in.write(command + "\n");
            in.flush();
            String name = command.split(" ")[0];
            while (true) {
                JsonNode line = next();
                if (line.has("path")) {
                    requests.add(line);
                } else {
                    assertThat(line.path("reply").asString()).as(line.toString()).isEqualTo(name);
                    return line;
                }
            }
        }

        /** The next request the target received. */
        JsonNode request() throws Exception {
            if (!requests.isEmpty()) {
                return requests.poll();
            }
            JsonNode line = next();
            assertThat(line.has("path")).as(line.toString()).isTrue();
            return line;
        }

        void exit() throws Exception {
            in.write("exit\n");
            in.flush();
            assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(node.exitValue()).isZero();
        }

        @Override
        public void close() throws Exception {
            in.close();
            out.close();
        }
    }

    private static com.google.protobuf.Duration seconds(long seconds) {
        return com.google.protobuf.Duration.newBuilder().setSeconds(seconds).build();
    }

    private static Task dueNow(QueueName queue, String id, String url) {
        return Task.newBuilder().setName(queue + "/tasks/" + id).setHttpRequest(com.google.cloud.tasks.v2.HttpRequest
                .newBuilder().setUrl(url).setBody(ByteString.copyFromUtf8(id))).build();
    }

    /**
     * Fires the task due now, then advances the queue's clock a second after each failed attempt while it waits for
     * a retry; answers how many attempts the target received before the task was dead.
     */
    private int attemptsOneSecondApart(String clock) throws InterruptedException {
        json("{\"by\":0}").post("/clocks/" + clock + "/advance").then().statusCode(200);
        int attempts = 0;
        while (true) {
            Receiver.Request request = receiver.next();
            attempts++;
            assertThat(request.header("X-CloudTasks-TaskRetryCount")).isEqualTo(Integer.toString(attempts - 1));
            if (settledAttempt(clock)) {
                return attempts;
            }
            json("{\"by\":1000}").post("/clocks/" + clock + "/advance").then().statusCode(200);
        }
    }

    private void awaitWaiting(String clock, int count) {
        await().atMost(Duration.ofSeconds(20)).until(() -> given().get("/clocks/" + clock + "/deliveries")
                .jsonPath().getInt("waiting") == count);
    }

    private void awaitDead(String clock, String task) throws InterruptedException {
        await().atMost(Duration.ofSeconds(20)).until(() -> given().get("/clocks/" + clock + "/deliveries")
                .jsonPath().getInt("dead") == 1);
        assertThat(given().get("/clocks/" + clock + "/deliveries/dead").jsonPath().getList("deliveries.id"))
                .containsExactly(task);
        assertThat(receiver.nextWithin(200)).as("no attempt after the last").isNull();
    }
}
