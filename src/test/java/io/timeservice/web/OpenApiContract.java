package io.timeservice.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.StringNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The API contract as the service ships it ({@code openapi.yaml}, bundled as {@code contract/openapi.yaml}), and the
 * check of one observed HTTP exchange against it: the path and method must be documented, the status must be one
 * of the operation's responses, the content type one of that response's media types, the body valid against its
 * JSON Schema (draft 2020-12, {@code $ref}s resolved in the document), and every required response header present
 * and valid. Problem bodies are also checked for what a schema cannot say: {@code status} equals the HTTP status,
 * {@code type} ends in {@code code}, {@code instance} is the request path, and nothing names our internals.
 */
final class OpenApiContract {

    static final String RESOURCE = ApiDocsController.CONTRACT;
    static final OpenApiContract INSTANCE = new OpenApiContract();

    private static final String DOCUMENT = "classpath:" + RESOURCE;
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch",
            "trace");
    private static final Pattern INTERNALS = Pattern.compile(
            "(?i)exception|\\bjava\\.|tools\\.jackson|com\\.fasterxml|org\\.springframework|org\\.apache|"
                    + "\\.java:\\d|\\bat [a-z]+\\.[a-z]|`|StreamRead|JsonRead");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JsonNode document;
    private final Map<String, Pattern> pathPatterns = new LinkedHashMap<>();
    private final SchemaRegistry registry = SchemaRegistry.withDialect(Dialects.getOpenApi31());
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    private OpenApiContract() {
        try (InputStream in = OpenApiContract.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the classpath");
            }
            document = new YAMLMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Literal paths first, so that a literal segment wins over a template (as in Spring MVC).
        List<String> templates = new ArrayList<>(paths());
        templates.sort((a, b) -> Boolean.compare(a.contains("{"), b.contains("{")));
        for (String template : templates) {
            pathPatterns.put(template, Pattern.compile(template.replaceAll("\\{[^/}]+}", "[^/]+")));
        }
    }

    JsonNode document() {
        return document;
    }

    List<String> paths() {
        List<String> paths = new ArrayList<>();
        document.get("paths").propertyNames().forEach(paths::add);
        return paths;
    }

    /** The methods a path documents, lower case. */
    List<String> methods(String template) {
        return methods(document, template);
    }

    /** The methods that a path of an OpenAPI document has, lower case. */
    static List<String> methods(JsonNode openApi, String template) {
        JsonNode item = openApi.get("paths").get(template);
        return METHODS.stream().filter(item::has).toList();
    }

    JsonNode operation(String template, String method) {
        return document.get("paths").get(template).get(method.toLowerCase(Locale.ROOT));
    }

    /** The documented path that a raw request path matches, if any. */
    Optional<String> match(String rawPath) {
        return pathPatterns.entrySet().stream()
                .filter(entry -> entry.getValue().matcher(rawPath).matches())
                .map(Map.Entry::getKey)
                .findFirst();
    }

    /** One HTTP exchange as the client saw it. Header names are matched case-insensitively. */
    record Exchange(String method, String rawPath, String requestContentType, String requestBody, int status,
                    String contentType, Map<String, String> headers, String body) {

        String header(String name) {
            return headers.entrySet().stream().filter(entry -> entry.getKey().equalsIgnoreCase(name))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
        }
    }

    /** Everything in which the exchange disagrees with the contract; empty when it agrees. */
    List<String> violations(Exchange exchange) {
        List<String> violations = new ArrayList<>();
        Optional<String> template = match(exchange.rawPath());
        String responsePointer;
        if (template.isEmpty()) {
            responsePointer = "/components/responses/NotFound";
            if (exchange.status() != 404) {
                violations.add(exchange.rawPath() + " is not a documented path, yet the status is "
                        + exchange.status() + " rather than 404");
                return violations;
            }
        } else if (operation(template.get(), exchange.method()) == null) {
            responsePointer = "/components/responses/MethodNotAllowed";
            if (exchange.status() != 405) {
                violations.add(exchange.method() + " " + template.get() + " is not documented, yet the status is "
                        + exchange.status() + " rather than 405");
                return violations;
            }
        } else {
            String operationPointer = "/paths/" + escape(template.get()) + "/"
                    + exchange.method().toLowerCase(Locale.ROOT);
            responsePointer = operationPointer + "/responses/" + exchange.status();
            if (document.at(responsePointer).isMissingNode()) {
                violations.add(exchange.method() + " " + template.get() + " does not document status "
                        + exchange.status() + " (body " + abbreviate(exchange.body()) + ")");
                return violations;
            }
            if (exchange.status() / 100 == 2) {
                checkAcceptedRequest(exchange, operationPointer, violations);
            }
        }
        checkResponse(exchange, responsePointer, violations);
        return violations;
    }

    /** Validates a response as {@code #<responsePointer>} documents it. */
    List<String> violations(Exchange exchange, String responsePointer) {
        List<String> violations = new ArrayList<>();
        checkResponse(exchange, responsePointer, violations);
        return violations;
    }

    private void checkResponse(Exchange exchange, String responsePointer, List<String> violations) {
        String where = exchange.method() + " " + exchange.rawPath() + " -> " + exchange.status() + ": ";
        String pointer = resolve(responsePointer);
        JsonNode response = document.at(pointer);
        JsonNode headers = response.path("headers");
        for (String name : headers.propertyNames()) {
            String headerPointer = resolve(pointer + "/headers/" + escape(name));
            JsonNode header = document.at(headerPointer);
            String value = exchange.header(name);
            if (value == null) {
                if (header.path("required").asBoolean(false)) {
                    violations.add(where + "required header " + name + " is missing");
                }
                continue;
            }
            for (Error error : schema(headerPointer + "/schema").validate(StringNode.valueOf(value))) {
                violations.add(where + "header " + name + " = " + value + ": " + error);
            }
        }
        JsonNode content = response.path("content");
        boolean hasBody = exchange.body() != null && !exchange.body().isEmpty();
        if (content.isMissingNode() || content.isEmpty()) {
            if (hasBody) {
                violations.add(where + "the contract documents no body, got " + abbreviate(exchange.body()));
            }
            return;
        }
        String mediaType = exchange.contentType() == null ? ""
                : exchange.contentType().split(";")[0].strip().toLowerCase(Locale.ROOT);
        if (!content.has(mediaType)) {
            violations.add(where + "content type '" + exchange.contentType() + "' is not one of "
                    + content.propertyNames());
            return;
        }
        JsonNode body;
        try {
            body = JSON.readTree(hasBody ? exchange.body() : "");
        } catch (JacksonException e) {
            violations.add(where + "the body is not JSON: " + abbreviate(exchange.body()));
            return;
        }
        if (body == null || body.isMissingNode()) {
            violations.add(where + "the body is empty");
            return;
        }
        for (Error error : schema(pointer + "/content/" + escape(mediaType) + "/schema").validate(body)) {
            violations.add(where + error + " in " + abbreviate(exchange.body()));
        }
        if (mediaType.equals("application/problem+json")) {
            checkProblem(exchange, body, where, violations);
        }
    }

    private static void checkProblem(Exchange exchange, JsonNode problem, String where, List<String> violations) {
        if (problem.path("status").asInt() != exchange.status()) {
            violations.add(where + "the problem's status is " + problem.path("status") + ", not the HTTP status");
        }
        if (!problem.path("type").asString("").equals("urn:timeservice:problem:" + problem.path("code").asString(""))) {
            violations.add(where + "type " + problem.path("type") + " does not name code " + problem.path("code"));
        }
        if (!problem.path("instance").asString("").equals(exchange.rawPath())) {
            violations.add(where + "instance " + problem.path("instance") + " is not the request path");
        }
        if (INTERNALS.matcher(exchange.body()).find()) {
            violations.add(where + "the problem names internals: " + exchange.body());
        }
    }

    /** A request the service accepted (2xx) must be one that the contract accepts. */
    private void checkAcceptedRequest(Exchange exchange, String operationPointer, List<String> violations) {
        String bodyPointer = resolve(operationPointer + "/requestBody");
        JsonNode requestBody = document.at(bodyPointer);
        if (requestBody.isMissingNode() || exchange.requestBody() == null) {
            return;
        }
        String where = exchange.method() + " " + exchange.rawPath() + " was accepted with " + exchange.status()
                + ", but its body " + abbreviate(exchange.requestBody()) + " ";
        String mediaType = exchange.requestContentType() == null ? ""
                : exchange.requestContentType().split(";")[0].strip().toLowerCase(Locale.ROOT);
        if (!requestBody.path("content").has(mediaType)) {
            violations.add(where + "has content type " + exchange.requestContentType() + ", not a documented one");
            return;
        }
        JsonNode body;
        try {
            body = JSON.readTree(exchange.requestBody());
        } catch (JacksonException e) {
            violations.add(where + "is not JSON");
            return;
        }
        for (Error error : schema(bodyPointer + "/content/" + escape(mediaType) + "/schema").validate(body)) {
            violations.add(where + "breaks the request schema: " + error);
        }
    }

    /** Follows {@code $ref}s (within the document) from the object at {@code pointer}. */
    private String resolve(String pointer) {
        String current = pointer;
        for (int hops = 0; hops < 10; hops++) {
            JsonNode node = document.at(current);
            if (!node.has("$ref")) {
                return current;
            }
            String ref = node.get("$ref").asString();
            if (!ref.startsWith("#/")) {
                throw new IllegalStateException("only local $refs are expected in the contract: " + ref);
            }
            current = ref.substring(1);
        }
        throw new IllegalStateException("$ref chain too long at " + pointer);
    }

    Schema schema(String pointer) {
        return schemas.computeIfAbsent(pointer,
                key -> registry.getSchema(SchemaLocation.of(DOCUMENT + "#" + key)));
    }

    /** Every {@code $ref} in the document, with where it appears. */
    List<String> refs() {
        List<String> refs = new ArrayList<>();
        collectRefs(document, "", refs);
        return refs;
    }

    private static void collectRefs(JsonNode node, String pointer, List<String> refs) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> member = it.next();
                if (member.getKey().equals("$ref") && member.getValue().isString()) {
                    refs.add(pointer + " -> " + member.getValue().asString());
                } else {
                    collectRefs(member.getValue(), pointer + "/" + escape(member.getKey()), refs);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectRefs(node.get(i), pointer + "/" + i, refs);
            }
        }
    }

    static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static String abbreviate(String text) {
        if (text == null) {
            return "(none)";
        }
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }
}
