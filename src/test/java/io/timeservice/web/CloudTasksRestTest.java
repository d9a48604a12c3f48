package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import io.timeservice.push.Receiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Cloud Tasks drop-in API (issue 47) over plain HTTP, without an SDK (CloudTasksSdkTest runs the SDKs): queues as
 * virtual push clocks, tasks as their timers, dispatch with the {@code X-CloudTasks-*} headers once the clock is
 * advanced, retries by the queue's retryConfig until dead, task names reserved, and Google's JSON error shape for
 * every refusal.
 */
@TestPropertySource(properties = "timeservice.push.allow-private-targets=true")
class CloudTasksRestTest extends RestTestSupport {

    static final String QUEUES = "/v2/projects/my-project/locations/us-central1/queues";
    static final String QUEUE = "projects/my-project/locations/us-central1/queues/orders";
    static final String CLOCK = "ct~my-project~us-central1~orders";
    private static final JsonMapper JSON = JsonMapper.shared();
    private static final long DAY = 86_400_000L;
    private final HttpClient http = HttpClient.newHttpClient();
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

    private Answer call(String method, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body().isEmpty() ? JSON.createObjectNode()
                : JSON.readTree(response.body()));
    }

    record Answer(int status, JsonNode body) {

        Answer is(int expected) {
            assertThat(status).as(body.toString()).isEqualTo(expected);
            return this;
        }

        /** Google's error shape with {@code canonical} and its HTTP code. */
        void refused(int code, String canonical) {
            is(code);
            assertThat(body.path("error").path("code").asInt()).isEqualTo(code);
            assertThat(body.path("error").path("status").asString()).isEqualTo(canonical);
            assertThat(body.path("error").path("message").asString()).isNotEmpty();
        }
    }

    private void createQueue(String retryConfig) throws Exception {
        call("POST", QUEUES, "{\"name\":\"" + QUEUE + "\",\"retryConfig\":" + retryConfig + "}").is(200);
    }

    private Answer createTask(String name, long scheduleTime, String body) throws Exception {
        String encoded = Base64.getEncoder().encodeToString(body.getBytes(StandardCharsets.UTF_8));
        return call("POST", "/v2/" + QUEUE + "/tasks", "{\"task\":{"
                + (name == null ? "" : "\"name\":\"" + QUEUE + "/tasks/" + name + "\",")
                + "\"scheduleTime\":\"" + java.time.Instant.ofEpochMilli(scheduleTime) + "\","
                + "\"httpRequest\":{\"url\":\"" + receiver.url("/work?x=1") + "\",\"httpMethod\":\"PUT\","
                + "\"headers\":{\"Content-Type\":\"application/json\",\"X-Tenant\":\"acme\"},"
                + "\"body\":\"" + encoded + "\"}},\"responseView\":\"FULL\"}");
    }

    private long clockNow() {
        return given().get("/clocks/" + CLOCK).jsonPath().getLong("now");
    }

    @Test
    void queue_isAVirtualPushClock_showsItsConfig_andASecondCreateIsAlreadyExists() throws Exception {
        call("POST", QUEUES, "{\"name\":\"" + QUEUE + "\",\"rateLimits\":{\"maxConcurrentDispatches\":1000},"
                + "\"retryConfig\":{\"maxAttempts\":5,\"minBackoff\":\"0.5s\",\"maxBackoff\":\"60s\","
                + "\"maxDoublings\":4,\"maxRetryDuration\":\"3600s\"}}").is(200);

        JsonNode queue = call("GET", "/v2/" + QUEUE, null).is(200).body();
        assertThat(queue.path("name").asString()).isEqualTo(QUEUE);
        assertThat(queue.path("state").asString()).isEqualTo("RUNNING");
        assertThat(queue.at("/retryConfig/maxAttempts").asInt()).isEqualTo(5);
        assertThat(queue.at("/retryConfig/minBackoff").asString()).isEqualTo("0.500s");
        assertThat(queue.at("/retryConfig/maxBackoff").asString()).isEqualTo("60s");
        assertThat(queue.at("/retryConfig/maxDoublings").asInt()).isEqualTo(4);
        assertThat(queue.at("/retryConfig/maxRetryDuration").asString()).isEqualTo("3600s");
        assertThat(queue.at("/rateLimits/maxDispatchesPerSecond").asDouble()).isEqualTo(500.0);
        given().get("/clocks/" + CLOCK).then().statusCode(200).body("mode", equalTo("virtual"))
                .body("dedupeWindow", equalTo(3_600_000));

        JsonNode listed = call("GET", QUEUES, null).is(200).body();
        assertThat(listed.path("queues").size()).isEqualTo(1);
        assertThat(listed.at("/queues/0/name").asString()).isEqualTo(QUEUE);
        call("POST", QUEUES, "{\"name\":\"" + QUEUE + "\"}").refused(409, "ALREADY_EXISTS");

        call("DELETE", "/v2/" + QUEUE, null).is(200);
        call("GET", "/v2/" + QUEUE, null).refused(404, "NOT_FOUND");
    }

    @Test
    void queueList_pagesByName_withinItsProjectAndLocation() throws Exception {
        for (String id : new String[] {"a", "b", "c"}) {
            call("POST", QUEUES, "{\"name\":\"projects/my-project/locations/us-central1/queues/" + id + "\"}")
                    .is(200);
        }
        call("POST", "/v2/projects/other/locations/us-central1/queues",
                "{\"name\":\"projects/other/locations/us-central1/queues/z\"}").is(200);

        JsonNode first = call("GET", QUEUES + "?pageSize=2", null).is(200).body();
        assertThat(first.path("queues").size()).isEqualTo(2);
        String token = first.path("nextPageToken").asString();
        JsonNode second = call("GET", QUEUES + "?pageSize=2&pageToken=" + token, null).is(200).body();
        assertThat(second.path("queues").size()).isEqualTo(1);
        assertThat(second.at("/queues/0/name").asString()).endsWith("/queues/c");
        assertThat(second.has("nextPageToken")).isFalse();
    }

    @Test
    void task_dueTomorrow_arrivesWithItsHeadersWhenTheClockPassesIt_andItsNameStaysTaken() throws Exception {
        createQueue("{\"maxAttempts\":3}");
        long tomorrow = clockNow() + DAY;
        JsonNode task = createTask("order-42", tomorrow, "{\"order\":42}").is(200).body();
        assertThat(task.path("name").asString()).isEqualTo(QUEUE + "/tasks/order-42");
        assertThat(task.path("scheduleTime").asString()).isEqualTo(java.time.Instant.ofEpochMilli(tomorrow)
                .toString());
        assertThat(task.at("/httpRequest/body").asString()).isEqualTo(Base64.getEncoder()
                .encodeToString("{\"order\":42}".getBytes(StandardCharsets.UTF_8)));

        JsonNode listed = call("GET", "/v2/" + QUEUE + "/tasks", null).is(200).body();
        assertThat(listed.path("tasks").size()).isEqualTo(1);
        assertThat(listed.at("/tasks/0/name").asString()).endsWith("/tasks/order-42");
        assertThat(listed.at("/tasks/0/httpRequest/body").isMissingNode()).as("BASIC leaves the body out").isTrue();
        createTask("order-42", tomorrow, "again").refused(409, "ALREADY_EXISTS");

        json("{\"by\":" + DAY + "}").post("/clocks/" + CLOCK + "/advance").then().statusCode(200);

        Receiver.Request arrived = receiver.next();
        assertThat(arrived.path()).isEqualTo("/work");
        assertThat(arrived.body()).isEqualTo("{\"order\":42}");
        assertThat(arrived.header("Content-Type")).isEqualTo("application/json");
        assertThat(arrived.header("X-Tenant")).isEqualTo("acme");
        assertThat(arrived.header("X-CloudTasks-QueueName")).isEqualTo("orders");
        assertThat(arrived.header("X-CloudTasks-TaskName")).isEqualTo("order-42");
        assertThat(arrived.header("X-CloudTasks-TaskRetryCount")).isEqualTo("0");
        assertThat(arrived.header("X-CloudTasks-TaskExecutionCount")).isEqualTo("0");
        assertThat(arrived.header("X-CloudTasks-TaskETA")).isEqualTo(tomorrow / 1000 + "."
                + String.format("%03d000", tomorrow % 1000));
        assertThat(arrived.header("X-CloudTasks-TaskPreviousResponse")).isNull();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            var counts = given().get("/clocks/" + CLOCK + "/deliveries").jsonPath();
            return counts.getInt("ready") + counts.getInt("inFlight") + counts.getInt("waiting") == 0;
        });

        call("GET", "/v2/" + QUEUE + "/tasks/order-42", null).refused(404, "NOT_FOUND");
        createTask("order-42", tomorrow, "after it ran").refused(409, "ALREADY_EXISTS");
    }

    @Test
    void task_answered500_isRetriedByTheRetryConfig_andDeadAfterItsLastAttempt() throws Exception {
        createQueue("{\"maxAttempts\":3,\"minBackoff\":\"10s\",\"maxBackoff\":\"60s\"}");
        receiver.answer(request -> Receiver.Answer.status(500));
        createTask("flaky", clockNow() + 1_000, "{}").is(200);

        json("{\"by\":1000}").post("/clocks/" + CLOCK + "/advance").then().statusCode(200);
        assertThat(receiver.next().header("X-CloudTasks-TaskRetryCount")).isEqualTo("0");
        awaitDeliveries("waiting", 1);
        JsonNode retrying = call("GET", "/v2/" + QUEUE + "/tasks/flaky", null).is(200).body();
        assertThat(retrying.path("dispatchCount").asInt()).isEqualTo(1);

        json("{\"by\":10000}").post("/clocks/" + CLOCK + "/advance").then().statusCode(200);
        Receiver.Request second = receiver.next();
        assertThat(second.header("X-CloudTasks-TaskRetryCount")).isEqualTo("1");
        assertThat(second.header("X-CloudTasks-TaskPreviousResponse")).isEqualTo("500");
        awaitDeliveries("waiting", 1);

        json("{\"by\":20000}").post("/clocks/" + CLOCK + "/advance").then().statusCode(200);
        assertThat(receiver.next().header("X-CloudTasks-TaskRetryCount")).isEqualTo("2");
        awaitDeliveries("dead", 1);
        assertThat(receiver.nextWithin(200)).as("no fourth attempt").isNull();
        call("GET", "/v2/" + QUEUE + "/tasks/flaky", null).refused(404, "NOT_FOUND");
    }

    private void awaitDeliveries(String state, int count) {
        await().atMost(Duration.ofSeconds(20)).until(() -> given().get("/clocks/" + CLOCK + "/deliveries")
                .jsonPath().getInt(state) == count);
    }

    @Test
    void taskWithoutAName_getsOne_andDeleteAndRunWorkOnPendingTasks() throws Exception {
        createQueue("{}");
        long later = clockNow() + DAY;
        String name = createTask(null, later, "a").is(200).body().path("name").asString();
        assertThat(name).matches(QUEUE + "/tasks/\\d+");
        call("DELETE", "/v2/" + name, null).is(200);
        call("GET", "/v2/" + name, null).refused(404, "NOT_FOUND");
        createTask(name.substring(name.lastIndexOf('/') + 1), later, "b").refused(409, "ALREADY_EXISTS");

        createTask("soon", later, "run me").is(200);
        call("POST", "/v2/" + QUEUE + "/tasks/soon:run", "{}").is(200);
        assertThat(receiver.next().body()).isEqualTo("run me");
    }

    @Test
    void refusals_areGooglesJsonErrors_andChangeNothing() throws Exception {
        call("GET", "/v2/" + QUEUE, null).refused(404, "NOT_FOUND");
        call("POST", QUEUES, "{\"name\":\"projects/my-project/locations/us-central1/queues/bad_id\"}")
                .refused(400, "INVALID_ARGUMENT");
        call("POST", QUEUES, "{\"name\":\"projects/other/locations/us-central1/queues/q\"}")
                .refused(400, "INVALID_ARGUMENT");
        call("POST", QUEUES, "{\"name\":\"" + QUEUE + "\",\"httpTarget\":{}}").refused(400, "INVALID_ARGUMENT");
        call("POST", QUEUES, "{\"name\":\"" + QUEUE + "\",\"retryConfig\":{\"minBackoff\":\"soon\"}}")
                .refused(400, "INVALID_ARGUMENT");
        call("POST", QUEUES, "{\"name\":\"" + QUEUE + "\",\"retryConfig\":{\"minBackoff\":\"20s\","
                + "\"maxBackoff\":\"10s\"}}").refused(400, "INVALID_ARGUMENT");
        call("POST", QUEUES, "not json").refused(400, "INVALID_ARGUMENT");
        call("GET", "/v2/" + QUEUE, null).refused(404, "NOT_FOUND");

        createQueue("{}");
        String tasks = "/v2/" + QUEUE + "/tasks";
        call("POST", tasks, "{\"task\":{\"httpRequest\":{}}}").refused(400, "INVALID_ARGUMENT");
        call("POST", tasks, "{\"task\":{\"httpRequest\":{\"url\":\"ftp://x\"}}}").refused(400, "INVALID_ARGUMENT");
        call("POST", tasks, "{\"task\":{\"scheduleTime\":\"tomorrow\",\"httpRequest\":{\"url\":\""
                + receiver.url("/") + "\"}}}").refused(400, "INVALID_ARGUMENT");
        call("POST", tasks, "{\"task\":{\"dispatchDeadline\":\"1s\",\"httpRequest\":{\"url\":\""
                + receiver.url("/") + "\"}}}").refused(400, "INVALID_ARGUMENT");
        call("POST", tasks, "{\"task\":{\"name\":\"" + QUEUE + "/tasks/a.b\",\"httpRequest\":{\"url\":\""
                + receiver.url("/") + "\"}}}").refused(400, "INVALID_ARGUMENT");
        call("POST", tasks, "{\"task\":{\"httpRequest\":{\"url\":\"" + receiver.url("/")
                + "\",\"body\":\"***\"}}}").refused(400, "INVALID_ARGUMENT");
        call("POST", tasks, "{\"task\":{\"appEngineHttpRequest\":{}}}").refused(400, "INVALID_ARGUMENT");
        call("POST", tasks, "{\"task\":{\"httpRequest\":{\"url\":\"" + receiver.url("/")
                + "\",\"headers\":{\"User-Agent\":\"a\\u0001b\"}}}}").refused(400, "INVALID_ARGUMENT");
        call("GET", tasks + "/missing", null).refused(404, "NOT_FOUND");
        call("DELETE", tasks + "/missing", null).refused(404, "NOT_FOUND");
        call("POST", "/v2/" + QUEUE + ":frobnicate", "{}").refused(404, "NOT_FOUND");
        call("PATCH", "/v2/" + QUEUE + "?updateMask=retryConfig.maxAttempts",
                "{\"retryConfig\":{\"maxAttempts\":-2}}").refused(400, "INVALID_ARGUMENT");
        call("PATCH", "/v2/" + QUEUE + "?updateMask=retryConfig.maxRetryDuration",
                "{\"retryConfig\":{\"maxRetryDuration\":\"2678401s\"}}").refused(400, "INVALID_ARGUMENT");
        call("PATCH", "/v2/" + QUEUE + "?updateMask=rateLimits.maxConcurrentDispatches",
                "{\"rateLimits\":{\"maxConcurrentDispatches\":5001}}").refused(400, "INVALID_ARGUMENT");
        assertThat(call("GET", tasks, null).is(200).body().has("tasks")).isFalse();
        JsonNode queue = call("GET", "/v2/" + QUEUE, null).is(200).body();
        assertThat(queue.at("/retryConfig/maxAttempts").asInt()).as("nothing changed").isEqualTo(100);
        assertThat(queue.at("/rateLimits/maxConcurrentDispatches").asInt()).isEqualTo(1000);
    }
}
