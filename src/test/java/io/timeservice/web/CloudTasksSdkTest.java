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
 * headers, and a task answered 500 is retried by the queue's retryConfig until dead after its last attempt.
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
            assertThatThrownBy(() -> client.updateQueue(queue.toBuilder().setRetryConfig(queue.getRetryConfig()
                    .toBuilder().setMaxAttempts(7)).build(), com.google.protobuf.FieldMask.getDefaultInstance()))
                    .isInstanceOfSatisfying(ApiException.class, refused -> assertThat(refused.getStatusCode()
                            .getCode()).isEqualTo(StatusCode.Code.UNIMPLEMENTED));

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
