package io.timeservice.web;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

import io.timeservice.model.SnapshotRules;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.SerializableString;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.JacksonIOException;
import tools.jackson.core.sym.PropertyNameMatcher;
import tools.jackson.core.util.JsonParserDelegate;

/**
 * The parser of one snapshot document ({@link SnapshotReader}), as strict about its structure as the document's
 * readers are about its values: outside payloads a member name appears once in its object and holds no lone
 * surrogate, and malformed JSON is refused ({@code invalid_snapshot}, "not valid JSON") at the member being read, or
 * at the object or array between its members (after an item of {@code timers}, at that item). Inside a payload it
 * leaves both to the payload's tree reader ({@link SnapshotValues.Payload}). Every way of moving on goes through
 * {@link #nextToken}, so no token escapes these checks. It also carries the text of the document, for payloads.
 *
 * <p>Not thread-safe: one read owns it.
 */
final class SnapshotParser extends JsonParserDelegate {

    /** The text being parsed, from which a payload is taken as sent. */
    final RecordingReader text;
    final StrictJsonConverter json;
    /** The names seen in each object open outside payloads, innermost first. */
    private final Deque<Set<String>> names = new ArrayDeque<>();
    private JsonToken last;
    private boolean inPayload;

    SnapshotParser(JsonParser parser, RecordingReader text, StrictJsonConverter json) {
        super(parser);
        this.text = text;
        this.json = json;
    }

    /** Checks no names until {@link #leavePayload}; the parser stands on the payload's first token. */
    void enterPayload() {
        if (last == JsonToken.START_OBJECT) {
            names.pop();
        }
        inPayload = true;
    }

    void leavePayload() {
        inPayload = false;
    }

    @Override
    public JsonToken nextToken() {
        JsonToken before = last;
        TokenStreamContext context = delegate.streamReadContext();
        int index = context.getCurrentIndex();
        try {
            last = delegate.nextToken();
        } catch (JacksonIOException unreadable) {
            throw unreadable;
        } catch (JacksonException malformed) {
            if (inPayload) {
                throw malformed;
            }
            throw SnapshotRules.refused(malformedAt(before, context, index), "not valid JSON: "
                    + StrictJsonConverter.withoutInternals(malformed.getOriginalMessage()));
        }
        if (!inPayload && last != null) {
            switch (last) {
                case START_OBJECT -> names.push(new HashSet<>());
                case END_OBJECT -> names.pop();
                case PROPERTY_NAME -> requireNewName(delegate.currentName());
                default -> { }
            }
        }
        return last;
    }

    private void requireNewName(String name) {
        TokenStreamContext object = delegate.streamReadContext();
        if (LoneSurrogates.indexOfLone(name) >= 0) {
            throw SnapshotRules.refused(pointer(object.getParent()), "a member name holds a lone surrogate");
        }
        if (!names.peek().add(name)) {
            throw SnapshotRules.refused(pointer(object), "a member may appear once");
        }
    }

    /**
     * Where malformed JSON met after {@code before} is refused: at the member whose value was next; else at the
     * object being read; in an array, at the item just read if it was an object, else at the array.
     */
    private static String malformedAt(JsonToken before, TokenStreamContext context, int index) {
        if (context.inRoot()) {
            return "";
        }
        if (before == JsonToken.PROPERTY_NAME) {
            return pointer(context);
        }
        String container = pointer(context.getParent());
        return context.inArray() && before == JsonToken.END_OBJECT ? container + "/" + index : container;
    }

    private static String pointer(TokenStreamContext context) {
        return context.pathAsPointer().toString();
    }

    @Override
    public JsonToken nextValue() {
        JsonToken token = nextToken();
        return token == JsonToken.PROPERTY_NAME ? nextToken() : token;
    }

    @Override
    public String nextName() {
        return nextToken() == JsonToken.PROPERTY_NAME ? currentName() : null;
    }

    @Override
    public boolean nextName(SerializableString expected) {
        return nextToken() == JsonToken.PROPERTY_NAME && expected.getValue().equals(currentName());
    }

    @Override
    public int nextNameMatch(PropertyNameMatcher matcher) {
        JsonToken token = nextToken();
        if (token == JsonToken.PROPERTY_NAME) {
            return matcher.matchName(currentName());
        }
        return token == JsonToken.END_OBJECT ? PropertyNameMatcher.MATCH_END_OBJECT
                : PropertyNameMatcher.MATCH_ODD_TOKEN;
    }

    @Override
    public JsonParser skipChildren() {
        if (!hasToken(JsonToken.START_OBJECT) && !hasToken(JsonToken.START_ARRAY)) {
            return this;
        }
        for (int open = 1; open > 0; ) {
            JsonToken token = nextToken();
            if (token == null) {
                return this;
            }
            open += token.isStructStart() ? 1 : token.isStructEnd() ? -1 : 0;
        }
        return this;
    }
}
