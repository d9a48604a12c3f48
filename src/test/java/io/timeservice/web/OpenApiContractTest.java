package io.timeservice.web;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.timeservice.model.ErrorCode;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.io.ClassPathResource;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * openapi.yaml and the running service agree: every documented operation is routed, every routed endpoint is
 * documented, /v3/api-docs serves exactly the yaml, the yaml's own examples obey its schemas, and the response
 * checker that every REST test runs through ({@link ContractFilter}) does catch a disagreement.
 */
class OpenApiContractTest extends RestTestSupport {

    private static final OpenApiContract CONTRACT = OpenApiContract.INSTANCE;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Test
    void everyDocumentedOperation_isRoutedByTheService() {
        for (String template : CONTRACT.paths()) {
            String path = template.replaceAll("\\{[^/}]+}", "contract-probe");
            for (String method : CONTRACT.methods(template)) {
                JsonNode operation = CONTRACT.operation(template, method);
                var request = operation.has("requestBody")
                        ? given().contentType(ContentType.JSON).body("{}") : given();

                Response response = request.request(method.toUpperCase(Locale.ROOT), path);

                String what = method.toUpperCase(Locale.ROOT) + " " + template + " -> " + response.asString();
                assertNotEquals(405, response.statusCode(), what);
                assertFalse(response.statusCode() == 404
                        && "not_found".equals(response.jsonPath().getString("code")), what);
            }
        }
    }

    @Test
    void everyEndpointOfTheService_isDocumented_andNothingElse() {
        Set<String> served = new TreeSet<>();
        for (Map.Entry<RequestMappingInfo, HandlerMethod> entry : mappings.getHandlerMethods().entrySet()) {
            Class<?> controller = entry.getValue().getBeanType();
            if (!controller.getPackageName().equals("io.timeservice.web")
                    || controller == ProblemErrorController.class || controller == ApiDocsController.class) {
                continue;
            }
            for (String path : entry.getKey().getPatternValues()) {
                entry.getKey().getMethodsCondition().getMethods()
                        .forEach(method -> served.add(method.name() + " " + path));
            }
        }
        Set<String> documented = new TreeSet<>();
        for (String template : CONTRACT.paths()) {
            CONTRACT.methods(template).forEach(method -> documented.add(method.toUpperCase(Locale.ROOT) + " "
                    + template));
        }

        assertEquals(documented, served);
    }

    @Test
    void apiDocs_servesTheContract() {
        Response apiDocs = RestAssured.given().port(port).get("/v3/api-docs");
        apiDocs.then().statusCode(200).contentType(ContentType.JSON);
        JsonNode served = JSON.readTree(apiDocs.asString());

        assertEquals(new TreeSet<>(CONTRACT.paths()), new TreeSet<>(served.get("paths").propertyNames()));
        for (String template : CONTRACT.paths()) {
            assertEquals(CONTRACT.methods(template), OpenApiContract.methods(served, template),
                    template);
        }
        assertEquals(normalized(CONTRACT.document()), normalized(served),
                "/v3/api-docs differs from openapi.yaml");
    }

    @Test
    void swaggerUi_showsTheServedDocument() {
        RestAssured.given().port(port).get("/swagger-ui/index.html").then()
                .statusCode(200)
                .contentType(ContentType.HTML)
                .body(containsString("swagger-ui"));
        RestAssured.given().port(port).get("/swagger-ui/swagger-initializer.js").then()
                .statusCode(200)
                .body(containsString("configUrl: \"/v3/api-docs/swagger-config\""), not(containsString("petstore")));
        RestAssured.given().port(port).get("/v3/api-docs/swagger-config").then()
                .statusCode(200)
                .body("url", equalTo("/v3/api-docs"));
        RestAssured.given().port(port).get("/swagger-ui/swagger-ui-bundle.js").then().statusCode(200);
        RestAssured.given().port(port).redirects().follow(false).get("/swagger-ui.html").then()
                .statusCode(302)
                .header("Location", "/swagger-ui/index.html");
    }

    @Test
    void apiDocsYaml_servesTheContractFileByteForByte() throws IOException {
        byte[] contract;
        try (InputStream in = new ClassPathResource(ApiDocsController.CONTRACT).getInputStream()) {
            contract = in.readAllBytes();
        }

        Response yaml = RestAssured.given().port(port).get("/v3/api-docs.yaml");

        yaml.then().statusCode(200).contentType("application/vnd.oai.openapi");
        assertArrayEquals(contract, yaml.asByteArray());
    }

    @Test
    void contract_describesTheServiceAsTheIssueAsks() {
        JsonNode document = CONTRACT.document();
        assertEquals("3.1.0", document.get("openapi").asString());
        assertEquals("TimeService", document.at("/info/title").asString());
        assertTrue(document.at("/info/description").asString().contains("(fireTime, priority, sequence)"));
        assertEquals("/", document.at("/servers/0/url").asString());

        Set<String> operationIds = new HashSet<>();
        for (String template : CONTRACT.paths()) {
            for (String method : CONTRACT.methods(template)) {
                JsonNode operation = CONTRACT.operation(template, method);
                assertTrue(operationIds.add(operation.get("operationId").asString()), "unique operationId");
                assertTrue(operation.has("summary"), template + " " + method + " has a summary");
                assertTrue(operation.path("responses").has("406") && operation.path("responses").has("500"),
                        template + " " + method + " documents 406 and 500");
            }
        }
    }

    @Test
    void contract_refsAllResolve() {
        List<String> dangling = new ArrayList<>();
        for (String ref : CONTRACT.refs()) {
            String target = ref.substring(ref.indexOf(" -> ") + 4);
            if (!target.startsWith("#/") || CONTRACT.document().at(target.substring(1)).isMissingNode()) {
                dangling.add(ref);
            }
        }
        assertEquals(List.of(), dangling);
    }

    @Test
    void contract_examplesObeyTheirSchemas() {
        List<String> broken = new ArrayList<>();
        int checked = checkExamples(CONTRACT.document(), "", broken);

        assertEquals(List.of(), broken);
        assertTrue(checked > 40, "examples checked: " + checked);
    }

    @Test
    void contract_problemCodes_coverEveryCodeTheServiceSends() {
        Set<String> documented = new TreeSet<>();
        CONTRACT.document().at("/components/schemas/ProblemCode/enum").forEach(code -> documented.add(code.asString()));

        for (ErrorCode code : ErrorCode.values()) {
            assertTrue(documented.contains(code.code()), code.code());
        }
        assertTrue(documented.containsAll(Set.of("demo_disabled", "not_found", "method_not_allowed",
                "not_acceptable", "unsupported_media_type", "internal_error")));
    }

    @Test
    void checker_acceptsAnExchangeThatFollowsTheContract() {
        assertEquals(List.of(), CONTRACT.violations(timerExchange(TIMER, Map.of("ETag", "\"1-1\""))));
    }

    @Test
    void checker_catchesEveryKindOfDisagreement() {
        Map<String, OpenApiContract.Exchange> wrong = new java.util.LinkedHashMap<>();
        wrong.put("a timer without its sequence", timerExchange(TIMER.replace("\"sequence\":1,", ""),
                Map.of("ETag", "\"1-1\"")));
        wrong.put("an extra member", timerExchange(TIMER.replace("}", ",\"extra\":1}"), Map.of("ETag", "\"1-1\"")));
        wrong.put("a missing ETag", timerExchange(TIMER, Map.of()));
        wrong.put("a malformed ETag", timerExchange(TIMER, Map.of("ETag", "W/\"1-1\"")));
        wrong.put("a wrong content type", new OpenApiContract.Exchange("GET", "/timers/A", null, null, 200,
                "text/plain", Map.of("ETag", "\"1-1\""), TIMER));
        wrong.put("an undocumented status", new OpenApiContract.Exchange("GET", "/clock", null, null, 418,
                PROBLEM_JSON, Map.of(), problem(418, "client_error", "/clock")));
        wrong.put("a code this operation never sends", new OpenApiContract.Exchange("POST", "/timers",
                "application/json", "{}", 400, PROBLEM_JSON, Map.of(), problem(400, "invalid_limit", "/timers")));
        wrong.put("a problem status unlike the HTTP status", new OpenApiContract.Exchange("GET", "/timers/A", null,
                null, 404, PROBLEM_JSON, Map.of(), problem(404, "timer_not_found", "/timers/A")
                .replace("\"status\":404", "\"status\":410")));
        wrong.put("a problem type unlike its code", new OpenApiContract.Exchange("GET", "/timers/A", null, null,
                404, PROBLEM_JSON, Map.of(), problem(404, "timer_not_found", "/timers/A")
                .replace("problem:timer_not_found", "problem:not_found")));
        wrong.put("an instance that is not the path", new OpenApiContract.Exchange("GET", "/timers/A", null, null,
                404, PROBLEM_JSON, Map.of(), problem(404, "timer_not_found", "/timers/B")));
        wrong.put("a class name in a problem", new OpenApiContract.Exchange("GET", "/timers/A", null, null, 404,
                PROBLEM_JSON, Map.of(), problem(404, "timer_not_found", "/timers/A")
                .replace("\"detail\":\"d\"", "\"detail\":\"java.lang.IllegalStateException\"")));
        wrong.put("an unknown path that answers", new OpenApiContract.Exchange("GET", "/nope", null, null, 200,
                "application/json", Map.of(), "{}"));
        wrong.put("a documented path that says not allowed", new OpenApiContract.Exchange("GET", "/clock", null,
                null, 405, PROBLEM_JSON, Map.of("Allow", "GET"), problem(405, "method_not_allowed", "/clock")));
        wrong.put("an accepted body that the contract refuses", new OpenApiContract.Exchange("POST", "/timers",
                "application/json", "{\"id\":\"A\",\"delay\":\"5\"}", 201, "application/json",
                Map.of("ETag", "\"1-1\"", "Location", "/timers/A"), TIMER));
        wrong.put("a body on 204", new OpenApiContract.Exchange("DELETE", "/timers/A", null, null, 204,
                "application/json", Map.of(), TIMER));
        wrong.put("a trace step of the wrong shape", timerExchange(TIMER.replace("}",
                ",\"trace\":[{\"op\":\"move\",\"id\":\"A\",\"to\":0}]}"), Map.of("ETag", "\"1-1\"")));

        for (Map.Entry<String, OpenApiContract.Exchange> entry : wrong.entrySet()) {
            assertFalse(CONTRACT.violations(entry.getValue()).isEmpty(), entry.getKey() + " went unnoticed");
        }
    }

    private static final String TIMER =
            "{\"id\":\"A\",\"fireTime\":5,\"priority\":0,\"sequence\":1,\"version\":1,\"createdAt\":0}";

    private static OpenApiContract.Exchange timerExchange(String body, Map<String, String> headers) {
        return new OpenApiContract.Exchange("GET", "/timers/A", null, null, 200, "application/json", headers, body);
    }

    private static String problem(int status, String code, String instance) {
        return "{\"type\":\"urn:timeservice:problem:" + code + "\",\"title\":\"t\",\"status\":" + status
                + ",\"detail\":\"d\",\"instance\":\"" + instance + "\",\"code\":\"" + code + "\"}";
    }

    /** Validates every {@code examples} map of a media type and every schema's {@code examples} list. */
    private static int checkExamples(JsonNode node, String pointer, List<String> broken) {
        int checked = 0;
        if (node.isObject()) {
            if (node.has("schema") && node.path("examples").isObject()) {
                for (String name : node.get("examples").propertyNames()) {
                    JsonNode value = node.get("examples").get(name).get("value");
                    checked++;
                    CONTRACT.schema(pointer + "/schema").validate(value)
                            .forEach(error -> broken.add(pointer + "/examples/" + name + ": " + error));
                }
            }
            if (pointer.startsWith("/components/schemas/") && pointer.chars().filter(c -> c == '/').count() == 3
                    && node.path("examples").isArray()) {
                for (JsonNode value : node.get("examples")) {
                    checked++;
                    CONTRACT.schema(pointer).validate(value)
                            .forEach(error -> broken.add(pointer + "/examples " + value + ": " + error));
                }
            }
            for (String name : node.propertyNames()) {
                checked += checkExamples(node.get(name), pointer + "/" + OpenApiContract.escape(name), broken);
            }
        }
        return checked;
    }

    /**
     * The document with what JSON does not distinguish made equal: numbers compared by value, and the order of
     * {@code required} (a set; swagger-core writes it sorted).
     */
    private static JsonNode normalized(JsonNode node) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        if (node.isObject()) {
            ObjectNode copy = nodes.objectNode();
            for (String name : new TreeSet<>(node.propertyNames())) {
                JsonNode value = node.get(name);
                if (name.equals("required") && value.isArray()) {
                    String[] sorted = new String[value.size()];
                    for (int i = 0; i < sorted.length; i++) {
                        sorted[i] = value.get(i).asString();
                    }
                    Arrays.sort(sorted);
                    ArrayNode array = nodes.arrayNode();
                    Arrays.stream(sorted).forEach(array::add);
                    copy.set(name, array);
                } else {
                    copy.set(name, normalized(value));
                }
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = nodes.arrayNode();
            node.forEach(element -> copy.add(normalized(element)));
            return copy;
        }
        if (node.isNumber()) {
            return nodes.stringNode("number:" + new BigDecimal(node.asString()).stripTrailingZeros().toPlainString());
        }
        return node;
    }
}
