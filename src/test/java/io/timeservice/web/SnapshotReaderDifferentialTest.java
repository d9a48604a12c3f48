package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.cron.UnixCronParser;
import io.timeservice.model.ProblemException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link SnapshotReader} reads every document as the reader before it did ({@link LegacySnapshotReader}, which walked
 * each member by hand): the same snapshot, or the same problem code, message and JSON pointer. The documents are the
 * cases of the snapshot REST tests, seeded random valid documents, and each of those mutated once to three times
 * (a member removed, a value replaced by one of another type, null, a huge number or an odd string, a member repeated,
 * an unknown member added, the text cut or a character changed). Run with two sets of limits: the defaults, and
 * limits small enough that documents and payloads meet them. The corpus holds the document as it was at the rewrite:
 * the optional members added since (a clock's {@code dedupeWindow} and reservations, a timer's or delivery's
 * {@code traceparent} and {@code tracestate}) are unknown to the reader before, so they are left out.
 */
class SnapshotReaderDifferentialTest {

    private static final JsonMapper PLAIN = JsonMapper.builder().build();
    /** A string value starting with this is written as the raw JSON that follows it (huge numbers, bad escapes). */
    private static final String RAW = "\u0000raw:";
    /** A member named with this prefix is written with the name that follows it: a repeated member. */
    private static final String TWICE = "\u0000twice:";

    private static final String[] ODD_VALUES = {"null", "0", "-1", "1", "7", "2147483647", "2147483648",
        "-2147483649", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "123456789012345678901234567890", "1.5", "2.0", "1e3", "1e400", "-0", "0.0000001", "true", "false", "\"\"",
        "\"x\"", "\"7\"", "\"\\uD800\"", "\"a\\uDC00b\"", "\"\\uD83D\\uDE00\"", "\"queue\"", "\"push\"", "\"scaled\"",
        "\"dead\"", "\"waiting\"", "\"in_flight\"", "\"ready\"", "\"latest\"", "\"done\"", "\"*/5 * * * *\"",
        "\"Europe/Paris\"", "\"http://127.0.0.1:9/x\"", "{}", "[]", "[1]", "{\"a\":1}", "[\"s\"]",
        "{\"a\":{\"b\":[1,2,{\"c\":null}]}}", "\"" + "y".repeat(300) + "\""};
    private static final String[] ODD_NAMES = {"unknown", "Id", "ID", "fireTime ", "\\uD800", "a~b", "a/b", "",
        "payload", "secrets", "x".repeat(40)};

    private static final List<String> CASES = List.of(
            "", "[]", "null", "7", "{}", "{\"format\":1,\"clock\":{}} {}", "{\"format\":1,\"clock\":{}",
            "{\"clock\":{}}", "{\"format\":2,\"clock\":{}}", "{\"format\":\"1\",\"clock\":{}}", "{\"format\":1}",
            "{\"format\":1,\"clock\":{},\"extra\":1}", "{\"format\":1,\"format\":1,\"clock\":{}}",
            "{\"format\":1,\"clock\":[]}", "{\"format\":1,\"clock\":{\"mode\":\"fast\"}}",
            "{\"format\":1,\"clock\":{\"mode\":\"system\",\"delivery\":\"response\"}}",
            "{\"format\":1,\"clock\":{\"retry\":{\"maxAttempts\":0}}}",
            "{\"format\":1,\"clock\":{\"retry\":{\"later\":0}}}", "{\"format\":1,\"clock\":{\"mode\":\"scaled\"}}",
            "{\"format\":1,\"clock\":{\"rate\":2}}", "{\"format\":1,\"clock\":{\"mode\":\"scaled\",\"rate\":0.0000001}}",
            "{\"format\":1,\"clock\":{\"mode\":\"scaled\",\"rate\":\"2\"}}", "{\"format\":1,\"clock\":{\"now\":-1}}",
            "{\"format\":1,\"clock\":{\"now\":1.5}}", "{\"format\":1,\"clock\":{\"nextSequence\":0}}",
            "{\"format\":1,\"clock\":{},\"timers\":{}}",
            "{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":10,\"sequence\":1},7]}",
            "{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"sequence\":1}]}",
            "{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"a b\",\"fireTime\":1,\"sequence\":1}]}",
            "{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":1,\"sequence\":1},"
                    + "{\"id\":\"t\",\"fireTime\":1,\"sequence\":2}]}",
            "{\"format\":1,\"clock\":{\"nextSequence\":1},\"timers\":[{\"id\":\"t\",\"fireTime\":10,\"sequence\":1}]}",
            "{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":1,\"sequence\":1,"
                    + "\"payload\":{\"a\":1,\"a\":2}}]}",
            "{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":1,\"sequence\":1,"
                    + "\"payload\":\"\\udc00\"}]}",
            "{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":1,\"sequence\":1,"
                    + "\"payload\":{\"a\":[1,}}]}",
            "{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":1,\"sequence\":1,"
                    + "\"payload\":\"" + "x".repeat(20_000) + "\"}]}",
            "{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\" \"fireTime\":1}]}",
            "{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",,\"fireTime\":1}]}",
            "{\"format\":1,\"clock\":{\"delivery\":\"queue\",\"now\":100},\"deliveries\":[{\"id\":\"d\","
                    + "\"fireTime\":0,\"sequence\":1,\"state\":\"waiting\"}]}",
            "{\"format\":1,\"clock\":{\"delivery\":\"push\",\"push\":{\"url\":\"http://127.0.0.1:9/x\","
                    + "\"headers\":{\"\\uD800\":5}}}}",
            "{\"format\":1,\"clock\":{\"delivery\":\"push\",\"push\":{\"url\":\"http://127.0.0.1:9/x\","
                    + "\"headers\":{\"a\":\"1\",\"a\":\"2\"}}}}",
            "{\"format\":1,\"clock\":{\"delivery\":\"push\",\"push\":{\"url\":\"ftp://x\"},\"now\":\"x\"}}",
            "{\"format\":1,\"clock\":{\"retry\":{\"maxAttempts\":0},\"now\":\"x\"}}",
            "{\"format\":1,\"clock\":{\"now\":1000},\"schedules\":[{\"id\":\"s\",\"every\":1000,\"next\":2000,"
                    + "\"state\":\"done\"}]}",
            "{\"format\":1,\"clock\":{},\"schedules\":[{\"id\":\"s\",\"cron\":\"bad\",\"next\":null}]}",
            "{\"format\":1,\"clock\":{},\"schedules\":[{\"id\":\"s\",\"every\":1000}]}");

    @ParameterizedTest
    @ValueSource(strings = {"defaults", "small"})
    void everyDocument_readsAsTheReaderBeforeItReadIt(String limits) {
        TimeServiceProperties properties = properties(limits.equals("small")
                ? Map.of("timeservice.limits.max-snapshot-bytes", "2KB", "timeservice.limits.max-payload-bytes", 40,
                        "timeservice.limits.max-body-bytes", 1024)
                : Map.of());
        StrictJsonConverter json = new StrictJsonConverter(properties);
        LegacySnapshotReader before = new LegacySnapshotReader(properties, json, new UnixCronParser());
        SnapshotReader now = new SnapshotReader(properties, json, new UnixCronParser());

        List<byte[]> documents = corpus();
        int read = 0;
        List<String> differences = new ArrayList<>();
        for (byte[] document : documents) {
            String expected = outcome(before::read, document);
            String actual = outcome(now::read, document);
            if (!expected.equals(actual)) {
                differences.add(abbreviated(new String(document, StandardCharsets.UTF_8)) + "\n  before: "
                        + abbreviated(expected) + "\n  now:    " + abbreviated(actual));
            }
            read += expected.startsWith("read ") ? 1 : 0;
        }
        assertThat(differences.subList(0, Math.min(20, differences.size())))
                .as("documents read differently (%d of %d)", differences.size(), documents.size()).isEmpty();
        assertThat(read).as("documents read").isGreaterThan(limits.equals("small") ? 20 : 200);
        assertThat(documents.size() - read).as("documents refused").isGreaterThan(3000);
    }

    private static String outcome(Function<ByteArrayInputStream, Object> reader, byte[] document) {
        try {
            return "read " + reader.apply(new ByteArrayInputStream(document));
        } catch (ProblemException refused) {
            return refused.code() + " at " + refused.member() + ": " + refused.getMessage();
        } catch (RuntimeException failed) {
            return "failed " + failed;
        }
    }

    private static String abbreviated(String text) {
        return text.length() <= 400 ? text : text.substring(0, 400) + "...";
    }

    private static TimeServiceProperties properties(Map<String, Object> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("timeservice",
                TimeServiceProperties.class);
    }

    /** The REST tests' cases, random valid documents, and each of those mutated. */
    static List<byte[]> corpus() {
        List<byte[]> documents = new ArrayList<>();
        for (String text : CASES) {
            documents.add(text.getBytes(StandardCharsets.UTF_8));
        }
        documents.add(new byte[] {'{', '"', (byte) 0xC3, '"', ':', '1', '}'}); // not UTF-8
        for (String text : limits()) {
            documents.add(text.getBytes(StandardCharsets.UTF_8));
        }
        documents.add("{\"format\":1,\"clock\":{\"name\":\"\u00e9\u20ac\"}}".getBytes(StandardCharsets.UTF_8));
        Random random = new Random(20261207);
        for (int i = 0; i < 400; i++) {
            ObjectNode valid = validDocument(random);
            documents.add(write(valid).getBytes(StandardCharsets.UTF_8));
            for (int m = 0; m < 10; m++) {
                ObjectNode mutated = valid.deepCopy();
                int mutations = 1 + random.nextInt(3);
                String text = null;
                for (int k = 0; k < mutations; k++) {
                    if (random.nextInt(8) == 0) {
                        text = corrupt(random, text != null ? text : write(mutated));
                    } else if (text == null) {
                        mutate(random, mutated);
                    }
                }
                documents.add((text != null ? text : write(mutated)).getBytes(StandardCharsets.UTF_8));
            }
        }
        return documents;
    }

    /** Documents at and past the parser's limits: nesting, number and name length, string length. */
    private static List<String> limits() {
        String timer = "{\"format\":1,\"clock\":{},\"timers\":[{\"id\":\"t\",\"fireTime\":1,\"sequence\":1,";
        List<String> documents = new ArrayList<>();
        for (int depth : new int[] {63, 64, 65, 70}) {
            documents.add(timer + "\"payload\":" + "[".repeat(depth) + "]".repeat(depth) + "}]}");
        }
        documents.add(timer + "\"priority\":" + "1".repeat(1000) + "}]}");
        documents.add(timer + "\"priority\":" + "1".repeat(1001) + "}]}");
        documents.add(timer + "\"" + "n".repeat(1024) + "\":1}]}");
        documents.add(timer + "\"" + "n".repeat(1025) + "\":1}]}");
        documents.add(timer + "\"payload\":\"" + "p".repeat(1500) + "\"}]}");
        documents.add("{\"format\":1,\"clock\":{\"name\":\"" + "c".repeat(1100) + "\"}}");
        documents.add("\uFEFF{\"format\":1,\"clock\":{}}");
        documents.add("  \n ");
        documents.add("{\"format\":1,\"clock\":{\"delivery\":\"push\",\"push\":{\"url\":\"http://127.0.0.1:9/x\","
                + "\"headers\":{\"a\":{\"b\":1}},\"secrets\":[\"s\",null]}}}");
        return documents;
    }

    private static ObjectNode validDocument(Random random) {
        ObjectNode document = PLAIN.createObjectNode();
        document.put("format", 1);
        ObjectNode clock = document.putObject("clock");
        long now = random.nextInt(3) == 0 ? 0 : 1000L * random.nextInt(100);
        String delivery = pick(random, "response", "queue", "push");
        if (random.nextBoolean()) {
            clock.put("name", pick(random, "c", "source", "caf\u00e9"));
        }
        String mode = delivery.equals("response") ? pick(random, "virtual", "virtual", "system", "scaled") : "virtual";
        if (random.nextBoolean() || !mode.equals("virtual")) {
            clock.put("mode", mode);
        }
        if (mode.equals("scaled")) {
            clock.put("rate", new java.math.BigDecimal(pick(random, "0", "1", "2.5", "0.000001", "1000")));
        }
        if (random.nextBoolean() || !delivery.equals("response")) {
            clock.put("delivery", delivery);
        }
        if (!delivery.equals("response") && random.nextBoolean()) {
            ObjectNode retry = clock.putObject("retry");
            retry.put("maxAttempts", 1 + random.nextInt(5));
            retry.put("initialBackoff", 100);
            retry.put("multiplier", pick(random, 1.0, 2.0, 1.5));
            retry.put("maxBackoff", 60_000);
            retry.put("jitter", pick(random, 0.0, 0.2, 1.0));
        }
        if (delivery.equals("push")) {
            ObjectNode push = clock.putObject("push");
            push.put("url", "http://127.0.0.1:" + (8000 + random.nextInt(100)) + "/hook");
            push.put("timeout", 1000 + random.nextInt(5000));
            push.put("concurrency", 1 + random.nextInt(8));
            ObjectNode headers = push.putObject("headers");
            for (int h = random.nextInt(3); h > 0; h--) {
                headers.put("X-H" + h, "v" + random.nextInt(9));
            }
            if (random.nextBoolean()) {
                push.putArray("secrets").add("s3cr3t-s3cr3t-s3cr3t-" + random.nextInt(99));
            } else {
                push.put("secretsCount", random.nextInt(2));
            }
        }
        if (random.nextBoolean()) {
            clock.put("now", now);
        }
        long sequence = 1;
        ArrayNode timers = document.putArray("timers");
        for (int t = random.nextInt(4); t > 0; t--) {
            ObjectNode timer = timers.addObject();
            fired(random, timer, "t" + t, now + random.nextInt(5000), sequence++);
            if (random.nextBoolean()) {
                timer.put("version", 1 + random.nextInt(3));
                timer.put("createdAt", random.nextInt((int) now + 1));
            }
        }
        if (!delivery.equals("response")) {
            ArrayNode deliveries = document.putArray("deliveries");
            for (int d = random.nextInt(4); d > 0; d--) {
                ObjectNode one = deliveries.addObject();
                fired(random, one, "d" + d, random.nextInt((int) now + 1), sequence++);
                String state = pick(random, "ready", "waiting", "dead", "in_flight");
                one.put("state", state);
                one.put("attempt", 1 + random.nextInt(2));
                if (state.equals("waiting")) {
                    one.put("retryAt", now + 1 + random.nextInt(1000));
                }
                if (state.equals("dead")) {
                    one.put("deadReason", pick(random, "attempts", "nacked"));
                }
            }
        }
        if (random.nextBoolean()) {
            ArrayNode schedules = document.putArray("schedules");
            for (int s = 1 + random.nextInt(2); s > 0; s--) {
                ObjectNode schedule = schedules.addObject();
                schedule.put("id", "s" + s);
                if (random.nextBoolean()) {
                    schedule.put("cron", pick(random, "*/5 * * * *", "0 9 * * 1-5"));
                    schedule.put("zone", pick(random, "UTC", "Europe/Paris"));
                } else {
                    schedule.put("every", 1000 * (1 + random.nextInt(60)));
                }
                schedule.put("priority", random.nextInt(5) - 2);
                schedule.put("catchUp", pick(random, "all", "latest", "none"));
                boolean paused = random.nextInt(4) == 0;
                schedule.put("paused", paused);
                if (random.nextInt(5) == 0) {
                    schedule.putNull("next");
                } else {
                    schedule.put("next", now + 1000 * (1 + random.nextInt(60)));
                }
                schedule.put("fired", random.nextInt(3));
                schedule.put("skipped", 0);
                schedule.put("triggered", 0);
                if (random.nextBoolean()) {
                    schedule.put("state", schedule.get("next").isNull() ? "done" : paused ? "paused" : "active");
                }
                schedule.put("version", 1 + random.nextInt(2));
                if (random.nextBoolean()) {
                    schedule.put("payload", "tick");
                }
            }
        }
        return document;
    }

    private static void fired(Random random, ObjectNode item, String id, long fireTime, long sequence) {
        item.put("id", id);
        item.put("fireTime", fireTime);
        if (random.nextBoolean()) {
            item.put("priority", random.nextInt(7) - 3);
        }
        item.put("sequence", sequence);
        switch (random.nextInt(4)) {
            case 0 -> item.putObject("payload").put("n", random.nextInt(100)).putArray("list").add(1.50).add("x");
            case 1 -> item.put("payload", "text " + random.nextInt(10));
            case 2 -> item.putNull("payload");
            default -> { }
        }
    }

    /** One change at a random place of the document: a member removed, replaced, repeated or added. */
    private static void mutate(Random random, ObjectNode document) {
        List<JsonNode> containers = new ArrayList<>();
        collect(document, containers);
        JsonNode container = containers.get(random.nextInt(containers.size()));
        if (container instanceof ArrayNode array) {
            if (array.isEmpty() || random.nextInt(4) == 0) {
                array.add(odd(random));
            } else {
                array.set(random.nextInt(array.size()), odd(random));
            }
            return;
        }
        ObjectNode object = (ObjectNode) container;
        List<String> names = new ArrayList<>(object.propertyNames());
        int kind = names.isEmpty() ? 3 : random.nextInt(4);
        String name = names.isEmpty() ? null : names.get(random.nextInt(names.size()));
        switch (kind) {
            case 0 -> object.remove(name);
            case 1 -> object.set(name, odd(random));
            case 2 -> object.set(TWICE + name, random.nextBoolean() ? object.get(name).deepCopy() : odd(random));
            default -> object.set(random.nextBoolean() ? pick(random, ODD_NAMES) : TWICE + pick(random, "id",
                    "sequence", "fireTime", "state", "next", "url"), odd(random));
        }
    }

    private static void collect(JsonNode node, List<JsonNode> containers) {
        if (node.isContainer()) {
            containers.add(node);
            for (JsonNode child : node.values()) {
                collect(child, containers);
            }
        }
    }

    private static JsonNode odd(Random random) {
        return PLAIN.getNodeFactory().stringNode(RAW + pick(random, ODD_VALUES));
    }

    /** The text cut short, or one character dropped or replaced. */
    private static String corrupt(Random random, String text) {
        if (text.isEmpty()) {
            return "{";
        }
        int at = random.nextInt(text.length());
        return switch (random.nextInt(3)) {
            case 0 -> text.substring(0, at);
            case 1 -> text.substring(0, at) + text.substring(at + 1);
            default -> text.substring(0, at) + pick(random, "\"", ",", "}", "]", "x", " ", "\\", "9", "{", ":")
                    + text.substring(at + 1);
        };
    }

    /** The document as JSON, with the raw values and repeated members the markers ask for. */
    private static String write(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out);
        return out.toString();
    }

    private static void write(JsonNode node, StringBuilder out) {
        if (node instanceof ObjectNode object) {
            out.append('{');
            String separator = "";
            for (Map.Entry<String, JsonNode> member : object.properties()) {
                String name = member.getKey();
                out.append(separator).append(name.startsWith(TWICE) ? quoted(name.substring(TWICE.length()))
                        : name.contains("\\") ? "\"" + name + "\"" : quoted(name)).append(':');
                write(member.getValue(), out);
                separator = ",";
            }
            out.append('}');
        } else if (node instanceof ArrayNode array) {
            out.append('[');
            for (int i = 0; i < array.size(); i++) {
                out.append(i == 0 ? "" : ",");
                write(array.get(i), out);
            }
            out.append(']');
        } else if (node.isString() && node.asString().startsWith(RAW)) {
            out.append(node.asString().substring(RAW.length()));
        } else {
            out.append(PLAIN.writeValueAsString(node));
        }
    }

    private static String quoted(String name) {
        return PLAIN.writeValueAsString(name);
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... choices) {
        return choices[random.nextInt(choices.length)];
    }
}
