package io.timeservice.store.memory;


/**
 * One of a clock's recent acknowledgements: the claim and the id it acknowledged. A repeated ack of it succeeds and
 * changes nothing; snapshots keep them, so that this holds across a restart too.
 */
public record RecentAck(String claim, String id) {
}
