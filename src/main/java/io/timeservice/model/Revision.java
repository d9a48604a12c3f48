package io.timeservice.model;


/**
 * Identifies one state of one timer: {@code sequence} tells a reused id's generations apart, {@code version} counts
 * edits. A caller passes the revision it last saw to make a cancel or edit conditional (HTTP If-Match).
 */
public record Revision(long sequence, long version) {
}
