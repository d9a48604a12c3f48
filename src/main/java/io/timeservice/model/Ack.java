package io.timeservice.model;


/** One acknowledgement of a batch ack: the delivery {@code id} leased by {@code claim}. */
public record Ack(String id, String claim) {
}
