package io.timeservice.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One operation's result in a committed batch.
 *
 * @param id    the timer's id
 * @param etag  the entity tag of the new revision (add, edit) or of the cancelled one (cancel)
 * @param timer the timer after an add or edit; null after a cancel
 */
public record BatchResult(String id, String etag, Timer timer) {

    static BatchResult of(JsonNode node) {
        return new BatchResult(node.get("id").asText(), node.get("etag").asText(),
                node.has("sequence") ? Timer.of(node) : null);
    }
}
