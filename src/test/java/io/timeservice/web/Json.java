package io.timeservice.web;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Random JSON text and odd identifiers for the fuzz test; every choice comes from the caller's seeded Random. */
final class Json {

    private static final String[] MEMBERS = {"id", "delay", "priority", "payload", "by", "dealy", "", "ID",
        "\u0000", "__proto__", "id ", "\u00e9"};

    private Json() {
    }

    /** Any JSON value, nested up to {@code depth} levels. */
    static String value(Random random, int depth) {
        int kind = random.nextInt(depth <= 0 ? 6 : 8);
        return switch (kind) {
            case 0 -> "null";
            case 1 -> random.nextBoolean() ? "true" : "false";
            case 2 -> Long.toString(random.nextLong() >> random.nextInt(64));
            case 3 -> Double.toString((random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20));
            case 4 -> quote(string(random, random.nextInt(20)));
            case 5 -> hugeNumber(random);
            case 6 -> {
                StringBuilder array = new StringBuilder("[");
                int n = random.nextInt(5);
                for (int i = 0; i < n; i++) {
                    array.append(i == 0 ? "" : ",").append(value(random, depth - 1));
                }
                yield array.append(']').toString();
            }
            default -> {
                StringBuilder object = new StringBuilder("{");
                int n = random.nextInt(5);
                for (int i = 0; i < n; i++) {
                    object.append(i == 0 ? "" : ",").append(quote(name(random))).append(':')
                            .append(value(random, depth - 1));
                }
                yield object.append('}').toString();
            }
        };
    }

    /** An object whose members are mostly the API's own names, with random values: sometimes even valid. */
    static String members(Random random) {
        StringBuilder object = new StringBuilder("{");
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            String member = MEMBERS[random.nextInt(MEMBERS.length)];
            String value = random.nextInt(3) == 0 ? Long.toString(random.nextInt(2000) - 100)
                    : random.nextInt(4) == 0 ? quote("id-" + random.nextInt(50)) : value(random, 2);
            object.append(i == 0 ? "" : ",").append(quote(member)).append(':').append(value);
        }
        return object.append('}').toString();
    }

    static String hugeNumber(Random random) {
        String[] fixed = {"1e400", "-1e400", "1e-400", "9223372036854775807", "9223372036854775808",
            "-9223372036854775809", "1000000000000000", "1000000000000001", "2147483647", "2147483648",
            "-2147483649", "-1", "-0", "0.0", "1.0", "1E2", "NaN", "Infinity", "-Infinity", "0x10", "01", "+1",
            ".5", "1.", "1e", "--1", "1e999999999", "9".repeat(64), "9".repeat(65), "1" + "0".repeat(100),
            "0." + "0".repeat(60) + "1", "-" + "9".repeat(63)};
        return fixed[random.nextInt(fixed.length)];
    }

    /** An object with a member given twice, at the top or nested in the payload. */
    static String duplicated(Random random, String id) {
        return switch (random.nextInt(5)) {
            case 0 -> "{\"delay\":1,\"delay\":-1}";
            case 1 -> "{\"id\":\"" + id + "-x\",\"id\":\"" + id + "-y\",\"delay\":1}";
            case 2 -> "{\"by\":0,\"by\":1}";
            case 3 -> "{\"id\":\"" + id + "-z\",\"delay\":1,\"payload\":{\"a\":{\"b\":1,\"b\":1}}}";
            default -> "{\"priority\":1,\"delay\":2,\"priority\":1}";
        };
    }

    /** One to five code points from one random Unicode general category (including surrogates and controls). */
    static String unicodeId(Random random) {
        int category = random.nextInt(31);
        StringBuilder id = new StringBuilder();
        int wanted = 1 + random.nextInt(5);
        for (int tries = 0; tries < 20_000 && id.codePointCount(0, id.length()) < wanted; tries++) {
            int codePoint = random.nextInt(4) == 0 ? random.nextInt(0x3000) : random.nextInt(0x110000);
            if (Character.getType(codePoint) == category) {
                id.appendCodePoint(codePoint);
            }
        }
        return id.length() == 0 ? "\u0000" : id.toString();
    }

    static String string(Random random, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.appendCodePoint(random.nextInt(5) == 0 ? random.nextInt(0x110000) : 0x20 + random.nextInt(0x5F));
        }
        return text.toString();
    }

    private static String name(Random random) {
        return random.nextBoolean() ? MEMBERS[random.nextInt(MEMBERS.length)] : string(random, random.nextInt(8));
    }

    /** A JSON string literal: escapes what JSON needs escaped and every non-ASCII char, surrogates included. */
    static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                quoted.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7E) {
                quoted.append(String.format("\\u%04x", (int) c));
            } else {
                quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }

    /** Percent-encodes every byte of the text's UTF-8 that is not unreserved (lone surrogates become '?'). */
    static String percentEncode(String text) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                encoded.append((char) c);
            } else {
                encoded.append('%').append(String.format("%02X", c));
            }
        }
        return encoded.toString();
    }

    /** A made-up HTTP method name. */
    static String token(Random random) {
        String[] made = {"FOO", "PROPFIND", "MKCOL", "PURGE", "LINK", "GETX", "G", "QUERY", "BREW"};
        return made[random.nextInt(made.length)];
    }
}
