package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Seeded fuzzing of the whole HTTP surface with bad input: random JSON of every type and depth, random bytes,
 * truncated bodies, huge numbers, 10,000-level nesting, 1 MB strings, wrong content types, UTF-16/UTF-32/BOM/Latin-1
 * and invalid UTF-8, ids from every Unicode category, duplicated keys, random paths, methods, queries and
 * If-Match values. For every request: an answer within {@link HttpProbe#TIMEOUT}, never a 5xx, every refusal a
 * problem+json with a known code and no internals, and the queue (every timer with its version and payload, the
 * clock, the heap layout, the invariants) unchanged unless the request was a change that succeeded.
 *
 * <p>Replay a failure with {@code -Dfuzz.seed=<seed>} (every failure message starts with the seed);
 * {@code -Dfuzz.cases=<n>} sets the number of requests per seed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class BadInputFuzzTest {

    private static final int CASES_PER_SEED = Integer.getInteger("fuzz.cases", 600);
    private static final Set<String> KNOWN_CODES = Set.of("invalid_request", "invalid_id", "invalid_delay",
            "invalid_priority", "invalid_advance", "invalid_limit", "payload_too_large", "duplicate_id",
            "timer_not_found", "queue_empty", "precondition_failed", "capacity_exceeded", "not_found",
            "method_not_allowed", "unsupported_media_type", "not_acceptable", "demo_disabled", "unauthorized",
            "forbidden");
    /** Text that would betray internals in an answer (unless the request itself contained it). */
    private static final List<String> INTERNALS = List.of("Exception", "at io.", "java.", ".java", "tools.jackson",
            "com.fasterxml", "org.springframework", "org.apache", "`", "<html", "/work/", "Caused by");
    private static final Set<String> CHANGES = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final String[] METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"};
    private static final String[] PATHS = {"/timers", "/timers/%s", "/clock", "/clock/advance", "/queue",
        "/queue/next", "/queue/invariants", "/queue/heap", "/demo", "/demo/reset", "/", "/index.html",
        "/actuator", "/actuator/health", "/actuator/info", "/actuator/metrics", "/v3/api-docs", "/error",
        "/swagger-ui/index.html", "/favicon.ico"};
    private static final String[] CONTENT_TYPES = {"text/plain", "application/xml", "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=xyz", "application/json-patch+json", "application/json; charset=UTF-16",
        "application/json; charset=ISO-8859-1", "*/*", "application/*", "a/b/c", "json", "application/json;;;",
        "application/problem+json", "text/json", "application/JSON", "application/json; boundary=\"x"};
    private static final String[] ACCEPTS = {"application/xml", "text/html", "*/*;q=0", "image/png", "x", "*/*",
        "application/problem+json", "application/json;q=0.1, text/plain"};

    @LocalServerPort
    int port;

    private HttpProbe http;

    static List<Long> seeds() {
        Long fixed = Long.getLong("fuzz.seed");
        return fixed != null ? List.of(fixed) : List.of(20261130L, 7L, 0xC0FFEEL);
    }

    @BeforeEach
    void setUp() {
        http = new HttpProbe(port);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void badInput_neverFailsTheServer_andRefusalsChangeNothing(long seed) {
        Random random = new Random(seed);
        List<String> ids = seedQueue(seed, random);
        String state = snapshot("seed=" + seed + " before any case");
        for (int n = 0; n < CASES_PER_SEED; n++) {
            Case request = generate(random, ids);
            String context = "seed=" + seed + " case=" + n + " " + request;
            HttpProbe.Reply reply;
            try {
                reply = request.streamed()
                        ? http.sendStreamed(request.method(), request.path(), request.headers(), request.body())
                        : http.send(request.method(), request.path(), request.headers(), request.body());
            } catch (RuntimeException e) {
                throw new AssertionError(context + ": no answer within " + HttpProbe.TIMEOUT + ": " + e, e);
            }
            checkReply(context, request, reply);
            String after = snapshot(context);
            boolean changeSucceeded = reply.status() >= 200 && reply.status() < 300
                    && CHANGES.contains(request.method());
            if (!changeSucceeded) {
                assertThat(after).as(context + " changed the queue with status " + reply.status()).isEqualTo(state);
            }
            state = after;
            if (changeSucceeded && queueSize() < 10) {
                ids = seedQueue(seed + n, random);
                state = snapshot(context + " after reseeding");
            }
        }
    }

    private void checkReply(String context, Case request, HttpProbe.Reply reply) {
        assertThat(reply.status()).as(context + " answered " + reply.text()).isBetween(200, 499);
        if (reply.status() < 400) {
            return;
        }
        String requestText = request.path() + " " + request.headers() + " "
                + (request.body() == null ? "" : new String(request.body(), StandardCharsets.ISO_8859_1));
        String body = reply.text();
        for (String internal : INTERNALS) {
            if (!requestText.contains(internal)) {
                assertThat(body).as(context + " leaks internals").doesNotContain(internal);
            }
        }
        if (request.method().equals("HEAD")) {
            return;   // no body to check
        }
        assertThat(reply.contentType()).as(context + " answered " + body).startsWith("application/problem+json");
        JsonNode problem = reply.json();
        assertThat(problem.path("code").asString()).as(context + " answered " + body).isIn(KNOWN_CODES);
        assertThat(problem.path("status").asInt()).as(context + " answered " + body).isEqualTo(reply.status());
        assertThat(problem.path("type").asString()).as(context)
                .isEqualTo("urn:timeservice:problem:" + problem.path("code").asString());
    }

    /** Every pending timer with its version and payload, the clock, the heap layout and the invariants (not when). */
    private String snapshot(String context) {
        HttpProbe.Reply listing = http.get("/timers?limit=1000");
        HttpProbe.Reply heap = http.get("/queue/heap?limit=1023");
        assertThat(listing.status()).as(context).isEqualTo(200);
        assertThat(heap.status()).as(context).isEqualTo(200);
        JsonNode heapJson = heap.json();
        assertThat(heapJson.path("invariants").path("ok").asBoolean()).as(context + " invariants " + heap.text())
                .isTrue();
        assertThat(listing.json().path("size").asInt()).as(context).isLessThan(1000);
        return listing.text() + "\n" + RestTestSupport.withoutCheckTime(heap.text());
    }

    private int queueSize() {
        return http.get("/queue").json().path("size").asInt();
    }

    private List<String> seedQueue(long seed, Random random) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String id = "fz" + Long.toHexString(seed) + "-" + i;
            HttpProbe.Reply reply = http.json("POST", "/timers", "{\"id\":\"" + id + "\",\"delay\":"
                    + (1000 + random.nextInt(1_000_000)) + ",\"priority\":" + (random.nextInt(7) - 3)
                    + ",\"payload\":{\"n\":" + i + "}}");
            assertThat(reply.status()).as("seed=" + seed + " seeding " + reply.text()).isIn(201, 409);
            ids.add(id);
        }
        return ids;
    }

    // ---- generators ----

    record Case(String kind, String method, String path, Map<String, String> headers, byte[] body, boolean streamed) {

        @Override
        public String toString() {
            String shown = body == null ? "" : new String(body, 0, Math.min(body.length, 160),
                    StandardCharsets.ISO_8859_1).replaceAll("[^\\x20-\\x7e]", "?");
            return kind + ": " + method + " " + (path.length() > 160 ? path.substring(0, 160) + "..." : path)
                    + " " + headers + (body == null ? "" : " body[" + body.length + "]=" + shown);
        }
    }

    private Case generate(Random random, List<String> ids) {
        String id = ids.get(random.nextInt(ids.size()));
        int dice = random.nextInt(100);
        if (dice < 14) {
            return jsonCase("random-json", random, id, Json.value(random, random.nextInt(8)));
        } else if (dice < 26) {
            return jsonCase("random-members", random, id, Json.members(random));
        } else if (dice < 32) {
            byte[] bytes = new byte[random.nextInt(2000)];
            random.nextBytes(bytes);
            return bodyCase("random-bytes", random, id, bytes, json());
        } else if (dice < 38) {
            String valid = validBody(random, id);
            return bodyCase("truncated", random, id,
                    valid.substring(0, random.nextInt(valid.length())).getBytes(StandardCharsets.UTF_8), json());
        } else if (dice < 46) {
            String number = Json.hugeNumber(random);
            String member = new String[] {"delay", "priority", "by"}[random.nextInt(3)];
            return jsonCase("huge-number", random, id, "{\"id\":\"" + id + "-n\",\"" + member + "\":" + number + "}");
        } else if (dice < 47) {
            String deep = random.nextBoolean() ? "[".repeat(10_000) + "]".repeat(10_000)
                    : "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000);
            return jsonCase("deep-10000", random, id, random.nextBoolean() ? deep
                    : "{\"id\":\"" + id + "-d\",\"delay\":1,\"payload\":" + deep + "}");
        } else if (dice < 48) {
            String huge = "{\"id\":\"" + id + "-h\",\"delay\":1,\"payload\":\"" + "x".repeat(1 << 20) + "\"}";
            return new Case("string-1MB", "POST", "/timers", json(), huge.getBytes(StandardCharsets.UTF_8),
                    random.nextBoolean());
        } else if (dice < 55) {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Content-Type", CONTENT_TYPES[random.nextInt(CONTENT_TYPES.length)]);
            return bodyCase("content-type", random, id, validBody(random, id).getBytes(StandardCharsets.UTF_8),
                    headers);
        } else if (dice < 61) {
            return bodyCase("encoding", random, id, oddlyEncoded(random, validBody(random, id)), json());
        } else if (dice < 71) {
            return unicodeIdCase(random, id);
        } else if (dice < 75) {
            return jsonCase("duplicate-keys", random, id, Json.duplicated(random, id));
        } else if (dice < 87) {
            return randomPathCase(random, id);
        } else if (dice < 95) {
            return ifMatchCase(random, id);
        } else {
            return acceptCase(random, id);
        }
    }

    private Case jsonCase(String kind, Random random, String id, String body) {
        return bodyCase(kind, random, id, body.getBytes(StandardCharsets.UTF_8), json());
    }

    /** A body sent to one of the three calls that read one. */
    private Case bodyCase(String kind, Random random, String id, byte[] body, Map<String, String> headers) {
        return switch (random.nextInt(3)) {
            case 0 -> new Case(kind, "POST", "/timers", headers, body, false);
            case 1 -> new Case(kind, "PATCH", "/timers/" + id, headers, body, false);
            default -> new Case(kind, "POST", "/clock/advance", headers, body, false);
        };
    }

    private static String validBody(Random random, String id) {
        return switch (random.nextInt(3)) {
            case 0 -> "{\"id\":\"" + id + "-v\",\"delay\":" + random.nextInt(1000) + ",\"priority\":1,"
                    + "\"payload\":{\"k\":[1,\"caf\u00e9\",null,true,2.5]}}";
            case 1 -> "{\"delay\":" + random.nextInt(1000) + ",\"priority\":-2}";
            default -> "{\"by\":" + random.nextInt(3) + "}";
        };
    }

    private static byte[] oddlyEncoded(Random random, String body) {
        switch (random.nextInt(7)) {
            case 0:
                return body.getBytes(StandardCharsets.UTF_16BE);
            case 1:
                return body.getBytes(StandardCharsets.UTF_16LE);
            case 2:
                return body.getBytes(StandardCharsets.UTF_16);
            case 3:
                return body.getBytes(Charset.forName("UTF-32"));
            case 4:
                return concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                        body.getBytes(StandardCharsets.UTF_8));
            case 5:
                return body.getBytes(StandardCharsets.ISO_8859_1);
            default:
                byte[][] invalid = {{(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                    {(byte) 0xFF}, {(byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
                    {(byte) 0xE2, (byte) 0x82}};
                byte[] utf8 = body.getBytes(StandardCharsets.UTF_8);
                int at = 1 + random.nextInt(utf8.length - 1);
                return concat(concat(java.util.Arrays.copyOf(utf8, at), invalid[random.nextInt(invalid.length)]),
                        java.util.Arrays.copyOfRange(utf8, at, utf8.length));
        }
    }

    private Case unicodeIdCase(Random random, String existing) {
        String weird = Json.unicodeId(random);
        return switch (random.nextInt(5)) {
            case 0 -> new Case("unicode-id", "POST", "/timers", json(),
                    ("{\"id\":" + Json.quote(weird) + ",\"delay\":1}").getBytes(StandardCharsets.UTF_8), false);
            case 1 -> new Case("unicode-id", "GET", "/timers/" + Json.percentEncode(weird), Map.of(), null, false);
            case 2 -> new Case("unicode-id", "DELETE", "/timers/" + Json.percentEncode(weird), Map.of(), null, false);
            case 3 -> new Case("unicode-id", "PATCH", "/timers/" + Json.percentEncode(weird), json(),
                    "{\"delay\":1}".getBytes(StandardCharsets.UTF_8), false);
            default -> new Case("unicode-id", "POST", "/timers", json(),
                    ("{\"id\":" + Json.quote(existing + weird) + ",\"delay\":1}").getBytes(StandardCharsets.UTF_8),
                    false);
        };
    }

    private Case randomPathCase(Random random, String id) {
        String method = random.nextInt(6) == 0 ? Json.token(random) : METHODS[random.nextInt(METHODS.length)];
        String path = String.format(PATHS[random.nextInt(PATHS.length)], id);
        switch (random.nextInt(6)) {
            case 0 -> path += "/" + Json.percentEncode(Json.unicodeId(random));
            case 1 -> path += new String[] {"/..", "/.", "/%2e%2e/queue", ";x=1", "//", "/%2F", "/%00", "/%5C",
                "/%25", "/" + "a".repeat(3000), "/x/y/z"}[random.nextInt(11)];
            case 2 -> path += "?" + new String[] {"limit=-1", "limit=abc", "limit=99999999999", "limit=0", "limit=",
                "limit=1&limit=2", "trace=maybe", "trace=", "limit=%00", "limit=1e3", "limit=\u0661"
                    .replace("\u0661", "%D9%A1"), "x=" + "y".repeat(2000)}[random.nextInt(12)];
            default -> {
            }
        }
        byte[] body = random.nextBoolean() ? null : Json.value(random, 3).getBytes(StandardCharsets.UTF_8);
        if (method.equals("TRACE") || method.equals("GET") || method.equals("HEAD")) {
            body = null;   // the client refuses bodies on these
        }
        return new Case("random-path", method, path, random.nextBoolean() ? json() : Map.of(), body, false);
    }

    private Case ifMatchCase(Random random, String id) {
        String[] tags = {"garbage", "\"\"", "W/\"1-1\"", "\"1-1\"", "\"999999999999999999999-1\"",
            "\"1-99999999999999999999\"", "\"-1--1\"", "\"1-1\", \"2-2\", \"3-3\"", ",,,", "\"1-1", "1-1\"",
            "\" 1-1\"", "\"1-1\" garbage", "\u00e9".replace("\u00e9", "e\u0301").substring(0, 1),
            ",".repeat(500), "\"" + "9".repeat(500) + "-1\"", "W/", "\t\"1-1\"\t"};
        String tag = tags[random.nextInt(tags.length)];
        Map<String, String> headers = new LinkedHashMap<>(json());
        headers.put("If-Match", tag);
        return random.nextBoolean()
                ? new Case("if-match", "DELETE", "/timers/" + id, headers, null, false)
                : new Case("if-match", "PATCH", "/timers/" + id, headers,
                        ("{\"delay\":" + random.nextInt(100) + "}").getBytes(StandardCharsets.UTF_8), false);
    }

    private Case acceptCase(Random random, String id) {
        Map<String, String> headers = new LinkedHashMap<>(json());
        headers.put("Accept", ACCEPTS[random.nextInt(ACCEPTS.length)]);
        return switch (random.nextInt(4)) {
            case 0 -> new Case("accept", "GET", "/timers/" + id + "-missing", Map.of("Accept", headers.get("Accept")),
                    null, false);
            case 1 -> new Case("accept", "POST", "/timers", headers,
                    "{\"id\":\"bad id\",\"delay\":1}".getBytes(StandardCharsets.UTF_8), false);
            case 2 -> new Case("accept", "GET", "/queue/heap?limit=0", Map.of("Accept", headers.get("Accept")),
                    null, false);
            default -> new Case("accept", "DELETE", "/nothing/here", Map.of("Accept", headers.get("Accept")),
                    null, false);
        };
    }

    private static Map<String, String> json() {
        return Map.of("Content-Type", "application/json");
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
