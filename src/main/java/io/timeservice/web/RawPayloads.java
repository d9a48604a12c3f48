package io.timeservice.web;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonPointer;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.POJONode;
import tools.jackson.databind.util.RawValue;

/**
 * A payload is the client's bytes: its JSON text is kept as sent, only the whitespace outside strings removed, so a
 * number comes back as written ({@code -0.0}, {@code 1e2}, {@code 1.50}) and a string with its own escapes, where a
 * parsed tree would write {@code 0.0}, {@code 1E+2} and Jackson's escapes. A body is parsed (and refused) as a tree
 * first; then {@link #keep} puts each {@code payload} member's text in the tree in place of its parsed value, as a
 * {@link RawValue} that binding passes through to the request record's {@code JsonNode} and {@link #text} reads.
 * Stateless.
 */
final class RawPayloads {

    private static final String MEMBER = "payload";

    private RawPayloads() {
    }

    /**
     * Replaces, in {@code tree} (the body {@code text} parsed), the value of every member named {@code payload} that
     * is not null by its text as sent; a payload inside a payload stays part of its text.
     */
    static void keep(String text, JsonNode tree, JsonMapper mapper) {
        if (!text.contains("\"" + MEMBER + "\"")) {
            return; // no payload member written plainly; an escaped name keeps the parsed value, compact JSON too
        }
        try (JsonParser parser = mapper.createParser(text)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token != JsonToken.PROPERTY_NAME || !MEMBER.equals(parser.currentName())) {
                    continue;
                }
                JsonToken value = parser.nextToken();
                if (value == JsonToken.VALUE_NULL) {
                    continue;
                }
                JsonPointer at = parser.streamReadContext().pathAsPointer(); // .../payload
                int start = (int) parser.currentTokenLocation().getCharOffset();
                parser.skipChildren();
                parser.getString(); // completes a string token, so that the location lies past it
                int end = (int) parser.currentLocation().getCharOffset();
                if (tree.at(at.head()) instanceof ObjectNode object) {
                    object.set(MEMBER, raw(compact(text, start, end)));
                }
            }
        }
    }

    /** A payload node holding {@code json} as its text. */
    static JsonNode raw(String json) {
        return JsonNodeFactory.instance.rawValueNode(new RawValue(json));
    }

    /** The text a node of {@link #raw} holds, or null for any other node. */
    static String text(JsonNode payload) {
        return payload instanceof POJONode pojo && pojo.getPojo() instanceof RawValue raw ? raw.rawValue().toString()
                : null;
    }

    /** {@code text[start, end)}, a JSON value, without the whitespace outside its strings. */
    static String compact(String text, int start, int end) {
        StringBuilder compact = null;
        boolean inString = false;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++; // the escaped character, kept below
                    if (compact != null) {
                        compact.append(c).append(text.charAt(i));
                    }
                    continue;
                }
                inString = c != '"';
            } else if (c == '"') {
                inString = true;
            } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                if (compact == null) {
                    compact = new StringBuilder(end - start).append(text, start, i);
                }
                continue;
            }
            if (compact != null) {
                compact.append(c);
            }
        }
        return compact == null ? text.substring(start, end) : compact.toString();
    }
}
