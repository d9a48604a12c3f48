package io.timeservice.model;


/**
 * The queue at a glance, read in O(1) under one lock.
 *
 * @param nextFireTime              fireTime of the root, or {@code null} when empty
 * @param oldestCreatedAt           virtual creation time of the longest-waiting pending timer, or {@code null}
 * @param oldestCreatedAtWallMillis wall-clock creation time of that timer in epoch ms, or {@code null}
 */
public record QueueStatus(long now, int size, Long nextFireTime, Long oldestCreatedAt,
                          Long oldestCreatedAtWallMillis) {
}
