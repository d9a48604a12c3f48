package io.timeservice.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One operation's result in a committed batch.
 *
 * @param id      the timer's id
 * @param etag    the entity tag of the new revision (add, edit) or of the cancelled one (cancel); null for an add
 *                that kept a reservation (there is no timer)
 * @param timer   the timer after an add or edit (or the one an add kept); null after a cancel and for a kept
 *                reservation
 * @param decided for an add with {@link AddOptions#onConflict}, what it did: {@code added}, {@code kept} (the timer or
 *                the reservation, with its {@code previous} state) or {@code replaced}; null for every other operation
 */
public record BatchResult(String id, String etag, Timer timer, AddResult decided) {

    /** The result of an operation that decided nothing: an add without {@code onConflict}, an edit or a cancel. */
    public BatchResult(String id, String etag, Timer timer) {
        this(id, etag, timer, null);
    }

    static BatchResult of(JsonNode node) {
        AddResult decided = node.has("result") ? AddResult.of(node) : null;
        return new BatchResult(node.get("id").asText(), Json.text(node, "etag"),
                node.has("sequence") ? Timer.of(node) : null, decided);
    }
}
