package io.timeservice.web;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/** Routing, negotiation and size errors: all problem+json, none of them changes anything. */
class HttpErrorsRestTest extends RestTestSupport {

    @Test
    void unknownPaths_areNotFound() {
        for (String path : List.of("/nope", "/timers/A/extra", "/timers/", "/queue/heap/0", "/clock/", "/v2/timers")) {
            assertProblem(given().get(path), 404, "not_found");
        }
        assertProblem(json("{}").post("/nope"), 404, "not_found");
    }

    @Test
    void wrongMethods_areMethodNotAllowed_withAllow() {
        assertProblem(given().put("/timers"), 405, "method_not_allowed");
        given().put("/timers").then().header("Allow", containsString("POST"));
        assertProblem(given().delete("/timers"), 405, "method_not_allowed");
        assertProblem(json("{\"id\":\"A\",\"delay\":1}").post("/timers/A"), 405, "method_not_allowed");
        assertProblem(given().get("/clock/advance"), 405, "method_not_allowed");
        assertProblem(json("{\"by\":1}").post("/clock"), 405, "method_not_allowed");
        assertProblem(given().delete("/queue"), 405, "method_not_allowed");
        assertProblem(given().post("/demo"), 405, "method_not_allowed");
        assertProblem(given().get("/demo/reset"), 405, "method_not_allowed");
    }

    @Test
    void anUnacceptableAccept_isNotAcceptable_beforeAnythingChanges() {
        add("A", 5);
        String before = observableState();

        assertProblem(json("{\"id\":\"B\",\"delay\":1}").accept("text/html").post("/timers"), 406,
                "not_acceptable");
        assertProblem(json("{\"delay\":1}").accept("text/plain").patch("/timers/A"), 406, "not_acceptable");
        assertProblem(given().accept("application/xml").delete("/timers/A"), 406, "not_acceptable");
        assertProblem(json("{\"by\":10}").accept("text/html").post("/clock/advance"), 406, "not_acceptable");
        assertProblem(given().accept("text/csv").get("/timers/A"), 406, "not_acceptable");

        assertEquals(before, observableState());
        given().accept("application/json").get("/timers/A").then().statusCode(200);
        given().accept("*/*").get("/timers/A").then().statusCode(200);
    }

    @Test
    void aBodyOver64KiB_isPayloadTooLarge() {
        add("A", 5);
        String before = observableState();
        String padding = " ".repeat(64 * 1024);

        assertProblem(json("{\"id\":\"B\",\"delay\":1}" + padding).post("/timers"), 413, "payload_too_large");
        assertProblem(json("{\"delay\":1}" + padding).patch("/timers/A"), 413, "payload_too_large");
        assertProblem(json("{\"by\":1}" + padding).post("/clock/advance"), 413, "payload_too_large");

        assertEquals(before, observableState());
    }

    @Test
    void aBodyOfExactly64KiB_isRead() {
        String body = "{\"id\":\"B\",\"delay\":1}";
        add(body + " ".repeat(64 * 1024 - body.length())).then().body("id", equalTo("B"));
        given().get("/timers/B").then().statusCode(200).body("id", equalTo("B"));
    }

    @Test
    void aPayloadOver16KiB_isPayloadTooLarge_evenInASmallBody() {
        String payload = "[" + "1,".repeat(8_192) + "1]";

        assertProblem(json("{\"id\":\"B\",\"delay\":1,\"payload\":" + payload + "}").post("/timers"), 413,
                "payload_too_large");
        given().get("/queue").then().body("size", equalTo(0));
    }

    @Test
    void aMalformedRequestTarget_isAProblemToo() throws IOException {
        add("A", 5);
        for (String path : List.of("/timers/a%2Fb", "/timers/%ZZ", "/timers/a%00b")) {
            OpenApiContract.Exchange exchange = rawGet(path);

            assertEquals(400, exchange.status(), path);
            assertEquals(List.of(), OpenApiContract.INSTANCE.violations(exchange,
                    "/components/responses/MalformedRequestTarget"));
        }
        given().get("/timers/A").then().statusCode(200);
    }

    /**
     * Headers and paths that Spring Security's firewall refuses, wherever the refusal is noticed: while the request is
     * handled ({@code If-Match} used to answer 500), while content negotiation reads {@code Accept} (used to answer
     * an empty 400, because the error page read it again) and before any handling (a path parameter).
     */
    @Test
    void firewallRefusals_areInvalidRequestProblems_andChangeNothing() throws IOException {
        add("A", 5);
        String etag = given().get("/timers/A").header("ETag");
        List<OpenApiContract.Exchange> refused = List.of(
                rawRequest("DELETE", "/timers/A", "If-Match: " + etag + "\u0085\r\n"),
                rawRequest("GET", "/timers", "Accept: application/json\u0085\r\n"),
                rawRequest("GET", "/timers/A", "Accept: \u0085\r\n"),
                rawRequest("GET", "/timers;x=1", ""));

        for (OpenApiContract.Exchange exchange : refused) {
            String call = exchange.method() + " " + exchange.rawPath();
            assertEquals(400, exchange.status(), call);
            assertEquals(PROBLEM_JSON, exchange.contentType(), call);
            assertEquals(true, exchange.body().contains("\"code\":\"invalid_request\""), call + ": " + exchange.body());
            assertEquals(true, exchange.body().contains(Problems.FIREWALL_REFUSAL), call + ": " + exchange.body());
        }
        given().get("/timers/A").then().statusCode(200).header("ETag", etag);
    }

    @Test
    void problems_neverCarryInternals() {
        Response malformed = json("{\"id\":\"A\",\"delay\":1").post("/timers");
        Response nonStandard = json("{\"id\":\"A\",\"delay\":NaN}").post("/timers");
        Response tooLong = json("{\"id\":\"A\",\"delay\":" + "1".repeat(2000) + "}").post("/timers");

        for (Response response : List.of(malformed, nonStandard, tooLong)) {
            assertProblem(response, 400, "invalid_request");
            String detail = response.jsonPath().getString("detail");
            assertEquals(false, detail.matches("(?s).*(`|Exception|jackson|StreamRead|JsonRead|Source:).*"), detail);
        }
        malformed.then().body("detail", containsString("line 1"));
        nonStandard.then().body("detail", containsString("NaN"));
    }

    @Test
    void contentTypeCheck_comesBeforeTheBodyIsRead() {
        assertProblem(given().contentType(ContentType.TEXT).body("not json").post("/timers"), 415,
                "unsupported_media_type");
        assertProblem(given().post("/timers"), 415, "unsupported_media_type");
    }

    /** A GET with a request target that HTTP client libraries refuse to send, over a plain socket. */
    private OpenApiContract.Exchange rawGet(String target) throws IOException {
        return rawRequest("GET", target, "");
    }

    /**
     * A request over a plain socket, with {@code headerLines} ("Name: value\r\n" each, ISO-8859-1: any byte a client
     * could send) after Host; without a body.
     */
    private OpenApiContract.Exchange rawRequest(String method, String target, String headerLines) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write((method + " " + target + " HTTP/1.1\r\nHost: localhost\r\n" + headerLines
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String[] parts = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                    .split("\r\n\r\n", 2);
            String[] lines = parts[0].split("\r\n");
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, colon).strip(), lines[i].substring(colon + 1).strip());
            }
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            String contentType = headers.entrySet().stream().filter(h -> h.getKey().equalsIgnoreCase("Content-Type"))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
            return new OpenApiContract.Exchange(method, target, null, null, status, contentType, headers,
                    parts.length > 1 ? parts[1] : "");
        }
    }
}
