package io.timeservice.store.memory.journal;


/** When the journal forces its writes to disk, and so what a crash can lose. */
public enum FsyncPolicy {
    /** Every acknowledged mutation is on disk first; concurrent requests share one fsync (group commit). */
    ALWAYS,
    /** Written at once, forced at most every interval: power loss can lose the last interval of acknowledged work. */
    INTERVAL,
    /** Written at once, forced only by the OS: power loss can lose what the OS had not written back. */
    NEVER
}
