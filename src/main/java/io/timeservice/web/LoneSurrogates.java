package io.timeservice.web;

import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * Finds lone UTF-16 surrogates in a parsed body. JSON text may escape one ({@code "\udc00"}) although it stands for
 * no character; Jackson decodes it into a Java string that no UTF-8 writer can encode, so a stored one would cut
 * off every later response that carries it and read back as {@code "?"} after a restart. Requests carrying one are
 * refused before anything else looks at their strings, member names included; a proper pair
 * ({@code "\ud83d\ude00"}) is one character and passes.
 *
 * <p>Cost: one pass over every string and member name of the tree, O(body size); recursion is bounded by the
 * parser's nesting limit.
 */
final class LoneSurrogates {

    /** Longest member name shown whole in a location; longer ones are cut (never inside a pair). */
    private static final int SHOWN_NAME_LENGTH = 64;

    private LoneSurrogates() {
    }

    /** Refuses {@code tree} with {@code invalid_request} naming where the first lone surrogate sits. */
    static void refuse(JsonNode tree) {
        String found = find(tree, "");
        if (found != null) {
            throw StrictJsonConverter.invalidRequest("the body holds a lone UTF-16 surrogate (an unpaired"
                    + " \\uD800-\\uDFFF escape), which is no character; " + found);
        }
    }

    /** Where the first lone surrogate below {@code node} sits, or {@code null}; {@code pointer} locates node. */
    private static String find(JsonNode node, String pointer) {
        if (node.isString()) {
            int at = indexOfLone(node.stringValue());
            return at < 0 ? null : describe(node.stringValue(), at, "in the string at " + shown(pointer));
        }
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> member : node.properties()) {
                String name = member.getKey();
                int at = indexOfLone(name);
                if (at >= 0) {
                    return describe(name, at, "in a member name under " + shown(pointer));
                }
                String found = find(member.getValue(), pointer + "/" + escaped(name));
                if (found != null) {
                    return found;
                }
            }
        } else if (node.isArray()) {
            int index = 0;
            for (JsonNode element : node.values()) {
                String found = find(element, pointer + "/" + index++);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** The index of the first surrogate in {@code text} that is not half of a high-low pair, or -1. */
    static int indexOfLone(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    /** {@code text} cut to about {@code max} characters, never between the two halves of a surrogate pair. */
    static String abbreviate(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end) + "...";
    }

    private static String describe(String text, int at, String where) {
        return String.format("\\u%04X at character %d %s", (int) text.charAt(at), at, where);
    }

    private static String shown(String pointer) {
        return pointer.isEmpty() ? "the top level" : "\"" + pointer + "\" (a JSON pointer)";
    }

    /** A member name as an RFC 6901 pointer token, cut to a readable length without splitting a pair. */
    private static String escaped(String name) {
        String token = name.replace("~", "~0").replace("/", "~1");
        return abbreviate(token, SHOWN_NAME_LENGTH);
    }
}
