package io.timeservice.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.RequestPostProcessor;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/** Tokens configured: who may call what, and what a refusal looks like. */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "timeservice.security.read-tokens=" + TokenAccessTest.READ + "," + TokenAccessTest.READ_2,
        "timeservice.security.write-tokens=" + TokenAccessTest.WRITE,
        "timeservice.demo.enabled=true",
        "logging.level.io.timeservice=DEBUG",
        "logging.level.org.springframework.security=DEBUG"})
@AutoConfigureMockMvc
class TokenAccessTest {

    static final String READ = "read-token-0123456789abcdef";
    static final String READ_2 = "second.read~token+/AZaz09==";
    static final String WRITE = "write-token-fedcba9876543210";

    /** Queue calls that must need a token; the test also finds every other mapped one by itself. */
    private static final List<String> KNOWN_PROTECTED = List.of("POST /timers", "GET /timers", "GET /timers/{id}",
            "PATCH /timers/{id}", "DELETE /timers/{id}", "POST /clock/advance", "GET /clock", "GET /queue",
            "GET /queue/next", "GET /queue/invariants", "GET /queue/heap", "GET /demo", "POST /demo/reset",
            "POST /deliveries/claim", "GET /deliveries", "GET /deliveries/dead",
            "GET /clocks/{clock}/deliveries/dead");

    private static final io.restassured.common.mapper.TypeRef<Map<Object, Object>> PROBLEM =
            new io.restassured.common.mapper.TypeRef<>() {
            };

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Autowired
    MockMvc mvc;

    @BeforeEach
    void setUp() {
        RestAssured.port = port;
        as(WRITE).post("/demo/reset").then().statusCode(200);
    }

    @Test
    void everyMappedQueueCall_withoutToken_is401ProblemWithBearerChallenge() {
        List<String> calls = new ArrayList<>();
        for (Map.Entry<RequestMappingInfo, ?> entry : mappings.getHandlerMethods().entrySet()) {
            Set<RequestMethod> methods = entry.getKey().getMethodsCondition().getMethods();
            for (String pattern : entry.getKey().getPatternValues()) {
                if (pattern.equals("/error") || pattern.startsWith("/v3/api-docs")
                        || pattern.startsWith("/swagger-ui")) {
                    continue;   // public on purpose: the error page and the API description carry no queue data
                }
                for (RequestMethod method : methods.isEmpty() ? Set.of(RequestMethod.GET) : methods) {
                    calls.add(method.name() + " " + pattern);
                }
            }
        }
        assertThat(calls).containsAll(KNOWN_PROTECTED);
        for (String call : calls) {
            String[] parts = call.split(" ");
            String path = parts[1].replaceAll("\\{[^}]*}", "some-id");
            Response response = given().contentType(ContentType.JSON).body("{}").request(parts[0], path);
            assertThat(response.statusCode()).as(call).isEqualTo(401);
            assertThat(response.header("WWW-Authenticate")).as(call).isEqualTo("Bearer realm=\"timeservice\"");
            assertThat(response.contentType()).as(call).isEqualTo("application/problem+json");
            assertThat(response.jsonPath().getString("code")).as(call).isEqualTo("unauthorized");
            assertThat(response.jsonPath().getInt("status")).as(call).isEqualTo(401);
            assertThat(response.jsonPath().getString("type")).as(call)
                    .isEqualTo("urn:timeservice:problem:unauthorized");
        }
    }

    @Test
    void encodedOrHeadOrOptionsVariantsOfAQueuePath_stillNeedAToken() {
        for (String path : new String[] {"/%74imers", "/queue/%68eap", "/timers/", "/queue/heap?limit=5"}) {
            given().urlEncodingEnabled(false).get(path).then().statusCode(401);
        }
        given().head("/queue").then().statusCode(401);
        given().options("/timers").then().statusCode(401);
    }

    @Test
    void wrongMalformedOrNonBearerCredentials_are401_andOnlyABearerTokenCounts() {
        for (String header : new String[] {"Bearer " + WRITE + "x", "Bearer " + WRITE.substring(1), "Bearer a b",
                "Bearer", "Bearer  ", "Bearer " + WRITE + ",", "Bearer \u00e9t\u00e9"}) {
            Response response = given().header("Authorization", header).get("/queue");
            assertThat(response.statusCode()).as(header).isEqualTo(401);
            assertThat(response.header("WWW-Authenticate")).as(header).contains("error=\"invalid_token\"");
            assertThat(response.jsonPath().getString("code")).as(header).isEqualTo("unauthorized");
        }
        given().header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
                ("user:" + WRITE).getBytes())).get("/queue").then().statusCode(401)
                .header("WWW-Authenticate", equalTo("Bearer realm=\"timeservice\""));
        given().queryParam("access_token", WRITE).get("/queue").then().statusCode(401);
        given().header("Authorization", "bearer " + READ).get("/queue").then().statusCode(200);
        given().header("Authorization", "BEARER   " + READ_2).get("/queue").then().statusCode(200);
    }

    @Test
    void readToken_readsEverything_butEveryChangeIs403_andChangesNothing() {
        as(WRITE).contentType(ContentType.JSON).body("{\"id\":\"kept\",\"delay\":10}").post("/timers")
                .then().statusCode(201);
        for (String path : new String[] {"/timers", "/timers/kept", "/clock", "/queue", "/queue/next",
                "/queue/invariants", "/queue/heap", "/demo", "/actuator/metrics", "/actuator/info",
                "/actuator/prometheus"}) {
            as(READ).get(path).then().statusCode(200);
        }
        List<Response> refused = List.of(
                as(READ).contentType(ContentType.JSON).body("{\"id\":\"new\",\"delay\":1}").post("/timers"),
                as(READ).contentType(ContentType.JSON).body("{\"delay\":99}").patch("/timers/kept"),
                as(READ).delete("/timers/kept"),
                as(READ_2).contentType(ContentType.JSON).body("{\"by\":100}").post("/clock/advance"),
                as(READ_2).post("/demo/reset"),
                as(READ).contentType(ContentType.JSON).body("{}").put("/timers/kept"),
                as(READ).contentType(ContentType.JSON).body("{\"ops\":[{\"op\":\"cancel\",\"id\":\"kept\"}]}")
                        .post("/batch"),
                as(READ).contentType(ContentType.JSON).body("{\"ops\":[{\"op\":\"cancel\",\"id\":\"kept\"}]}")
                        .post("/clocks/default/batch"));
        for (Response response : refused) {
            assertThat(response.statusCode()).isEqualTo(403);
            assertThat(response.header("WWW-Authenticate"))
                    .isEqualTo("Bearer realm=\"timeservice\", error=\"insufficient_scope\", scope=\"write\"");
            assertThat(response.contentType()).isEqualTo("application/problem+json");
            assertThat(response.jsonPath().getString("code")).isEqualTo("forbidden");
        }
        as(READ).get("/timers/kept").then().statusCode(200).body("fireTime", equalTo(10)).body("version", equalTo(1));
        as(READ).get("/queue").then().body("size", equalTo(1)).body("now", equalTo(0));
    }

    @Test
    void clocks_readWithTheReadScope_andChangeOnlyWithTheWriteScope() {
        as(WRITE).contentType(ContentType.JSON).body("{}").put("/clocks/tok").then().statusCode(201);
        for (String path : new String[] {"/clocks", "/clocks/tok", "/clocks/tok/timers", "/clocks/tok/queue",
                "/clocks/tok/queue/heap", "/clocks/tok/queue/invariants", "/clocks/tok/snapshot"}) {
            as(READ).get(path).then().statusCode(200);
        }
        List<Response> refused = List.of(
                as(READ).contentType(ContentType.JSON).body("{}").put("/clocks/other"),
                as(READ).delete("/clocks/tok"),
                as(READ).contentType(ContentType.JSON).body("{\"id\":\"x\",\"delay\":1}").post("/clocks/tok/timers"),
                as(READ).contentType(ContentType.JSON).body("{\"by\":1}").post("/clocks/tok/advance"),
                as(READ).contentType(ContentType.JSON).body("{\"rate\":2}").patch("/clocks/tok"),
                as(READ).contentType(ContentType.JSON).body("{\"format\":1,\"clock\":{}}")
                        .put("/clocks/loaded/snapshot"));
        for (Response response : refused) {
            assertThat(response.statusCode()).isEqualTo(403);
            assertThat(response.jsonPath().getString("code")).isEqualTo("forbidden");
        }
        as(READ).get("/clocks/other").then().statusCode(404);
        as(READ).get("/clocks/loaded").then().statusCode(404);
        as(WRITE).contentType(ContentType.JSON).body("{\"format\":1,\"clock\":{}}").put("/clocks/loaded/snapshot")
                .then().statusCode(201);
        as(WRITE).delete("/clocks/loaded").then().statusCode(204);
        as(WRITE).delete("/clocks/tok").then().statusCode(204);
    }

    @Test
    void flowKeyOverrides_readWithTheReadScope_andChangeOnlyWithTheWriteScope() {
        as(WRITE).contentType(ContentType.JSON).body("{\"delivery\":\"queue\",\"flow\":{\"concurrency\":1}}")
                .put("/clocks/fk").then().statusCode(201);
        as(WRITE).contentType(ContentType.JSON).body("{\"concurrency\":2}").put("/clocks/fk/flow/keys/a").then()
                .statusCode(201);
        as(READ).get("/clocks/fk/flow/keys/a").then().statusCode(200);
        as(READ).get("/clocks/fk/flow/keys").then().statusCode(200);
        List<Response> refused = List.of(
                as(READ).contentType(ContentType.JSON).body("{\"concurrency\":5}").put("/clocks/fk/flow/keys/a"),
                as(READ).contentType(ContentType.JSON).body("{\"concurrency\":5}").put("/clocks/fk/flow/keys/b"),
                as(READ).delete("/clocks/fk/flow/keys/a"));
        for (Response response : refused) {
            assertThat(response.statusCode()).isEqualTo(403);
            assertThat(response.jsonPath().getString("code")).isEqualTo("forbidden");
        }
        as(READ).get("/clocks/fk/flow/keys/a").then().statusCode(200).body("concurrency", equalTo(2));
        as(READ).get("/clocks/fk/flow/keys/b").then().statusCode(404);
        as(WRITE).delete("/clocks/fk/flow/keys/a").then().statusCode(204);
        as(WRITE).delete("/clocks/fk").then().statusCode(204);
    }

    @Test
    void deliveries_readWithTheReadScope_andEveryClaimOrChangeNeedsTheWriteScope() {
        as(WRITE).contentType(ContentType.JSON).body("{\"delivery\":\"queue\"}").put("/clocks/tq").then()
                .statusCode(201);
        for (String path : new String[] {"/clocks/tq/deliveries", "/clocks/tq/deliveries/dead"}) {
            as(READ).get(path).then().statusCode(200);
        }
        List<Response> refused = List.of(
                as(READ).contentType(ContentType.JSON).body("{}").post("/clocks/tq/deliveries/claim"),
                as(READ).contentType(ContentType.JSON).body("{}").post("/deliveries/claim"),
                as(READ).contentType(ContentType.JSON).body("{\"claim\":\"c\"}").post("/clocks/tq/deliveries/A/ack"),
                as(READ).contentType(ContentType.JSON).body("{\"claim\":\"c\"}").post("/clocks/tq/deliveries/A/nack"),
                as(READ).contentType(ContentType.JSON).body("{\"claim\":\"c\",\"lease\":1000}")
                        .post("/clocks/tq/deliveries/A/extend"),
                as(READ).post("/clocks/tq/deliveries/dead/A/redrive"),
                as(READ).delete("/clocks/tq/deliveries/dead/A"));
        for (Response response : refused) {
            assertThat(response.statusCode()).isEqualTo(403);
            assertThat(response.jsonPath().getString("code")).isEqualTo("forbidden");
        }
        as(WRITE).contentType(ContentType.JSON).body("{}").post("/clocks/tq/deliveries/claim").then().statusCode(200);
        as(WRITE).delete("/clocks/tq").then().statusCode(204);
    }

    @Test
    void writeToken_changesAndReads_withoutCsrfTokenOrSession() {
        Response added = as(WRITE).contentType(ContentType.JSON).body("{\"id\":\"w1\",\"delay\":5}").post("/timers");
        assertThat(added.statusCode()).isEqualTo(201);
        assertThat(added.headers().hasHeaderWithName("Set-Cookie")).isFalse();
        as(WRITE).contentType(ContentType.JSON).body("{\"priority\":3}").patch("/timers/w1").then().statusCode(200);
        as(WRITE).get("/timers/w1").then().statusCode(200).body("priority", equalTo(3));
        as(WRITE).delete("/timers/w1").then().statusCode(204);
        as(WRITE).contentType(ContentType.JSON).body("{\"by\":1}").post("/clock/advance").then().statusCode(200);
        as(WRITE).get("/actuator/prometheus").then().statusCode(200);
    }

    @Test
    void pageAssetsApiDocsAndHealth_needNoToken_andHealthShowsDetailsOnlyWithOne() {
        given().get("/security-probe.txt").then().statusCode(200);
        given().get("/v3/api-docs").then().statusCode(200);
        given().get("/swagger-ui/index.html").then().statusCode(200);
        assertThat(given().get("/").statusCode()).isNotIn(401, 403);
        given().get("/login").then().statusCode(404).body("code", equalTo("not_found"));   // no form login

        Response anonymous = given().get("/actuator/health");
        assertThat(anonymous.statusCode()).isEqualTo(200);
        assertThat(anonymous.jsonPath().getString("status")).isEqualTo("UP");
        assertThat(anonymous.jsonPath().getMap("$")).doesNotContainKeys("components", "details");
        as(READ).get("/actuator/health").then().statusCode(200)
                .body("components.timerQueue.details.arity", equalTo(4));
        for (String path : new String[] {"/actuator/prometheus", "/actuator/metrics", "/actuator/info",
                "/actuator"}) {
            given().get(path).then().statusCode(401).body("code", equalTo("unauthorized"));
        }
    }

    @Test
    void clientsOnOtherMachines_areTreatedAlike_noProtectedModeOnceTokensExist() throws Exception {
        RequestPostProcessor elsewhere = ProtectedModeTest.from(ProtectedModeTest.ELSEWHERE);
        mvc.perform(get("/queue").with(elsewhere)).andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.code").value("unauthorized"));
        mvc.perform(get("/queue").with(elsewhere).header("Authorization", "Bearer " + READ))
                .andExpect(status().isOk());
        mvc.perform(delete("/timers/any").with(elsewhere).header("Authorization", "Bearer " + READ))
                .andExpect(status().isForbidden()).andExpect(jsonPath("$.code").value("forbidden"));
        mvc.perform(get("/actuator/prometheus").with(elsewhere).header("Authorization", "Bearer " + READ))
                .andExpect(status().isOk());
        mvc.perform(get("/queue").with(ProtectedModeTest.from("127.0.0.1"))).andExpect(status().isUnauthorized());
    }

    @Test
    void refusals_haveTheSameProblemMembersAsEveryOtherError() {
        Set<Object> mvcProblem = as(READ).get("/timers/missing").then().statusCode(404).extract().as(PROBLEM).keySet();
        Set<Object> unauthorized = given().get("/timers/missing").as(PROBLEM).keySet();
        Set<Object> forbidden = as(READ).delete("/timers/missing").as(PROBLEM).keySet();
        assertThat(unauthorized).isEqualTo(mvcProblem).isEqualTo(forbidden)
                .containsExactlyInAnyOrder("type", "title", "status", "detail", "instance", "code");
        given().get("/timers/missing").then().body("instance", equalTo("/timers/missing"))
                .body("title", startsWith("Unauthorized"));
    }

    @Test
    void log_namesHowManyTokens_butNeverATokenNorAGeneratedPassword(CapturedOutput output) {
        as(READ).get("/queue").then().statusCode(200);
        given().header("Authorization", "Bearer " + WRITE + "-guess").get("/queue").then().statusCode(401);
        assertThat(output.getAll())
                .contains("API access needs a bearer token: 2 read token(s), 1 write token(s)")
                .doesNotContain(READ, READ_2, WRITE, "-guess")
                .doesNotContainIgnoringCase("generated security password")
                .doesNotContain("No API token is configured");
    }

    private static RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token);
    }
}
