package io.timeservice.store.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import io.timeservice.model.IdempotencyRules;
import io.timeservice.store.IdempotencyKey;
import io.timeservice.store.IdempotencyStore;
import io.timeservice.store.KeptAnswer;

/**
 * The memory store's {@code Idempotency-Key}s: a map in insertion order under one lock, at most {@code maxKeys}
 * (kept answers and running requests together; 429 beyond), expired by the wall clock {@code retention} after an
 * answer was kept. Kept answers are written to an {@link AnswerLog} before they are answered, and {@link #restore}d
 * from it at start-up; running requests are not (after a restart their key is free).
 */
public final class MemoryIdempotencyStore implements IdempotencyStore {

    private final LongSupplier wallMillis;
    private final long retentionMillis;
    private final long maxKeys;
    private AnswerLog log;
    private final LinkedHashMap<IdempotencyKey, Entry> entries = new LinkedHashMap<>();
    private final Map<String, Long> perClock = new HashMap<>();
    private long lastOwner;
    private long replays;

    public MemoryIdempotencyStore(LongSupplier wallMillis, Duration retention, long maxKeys, AnswerLog log) {
        this.wallMillis = wallMillis;
        this.retentionMillis = retention.toMillis();
        this.maxKeys = maxKeys;
        this.log = log;
    }

    /** Records every answer kept from now on in {@code log} (after the answers it held were {@link #restore}d). */
    public synchronized void logTo(AnswerLog log) {
        this.log = log;
    }

    /** Puts back a kept answer read from the log, unless it has expired (or the cap is reached). */
    public synchronized void restore(AnswerLog.SavedAnswer saved) {
        if (saved.expiresAt() > wallMillis.getAsLong() && (entries.containsKey(saved.key())
                || entries.size() < maxKeys)) {
            put(saved.key(), new Entry(saved.answer().fingerprint(), 0, saved.answer(), saved.expiresAt()));
        }
    }

    @Override
    public synchronized Begun begin(IdempotencyKey key, String fingerprint) {
        long now = wallMillis.getAsLong();
        Entry entry = entries.get(key);
        if (entry != null && entry.expiresAt() <= now) {
            remove(key);
            entry = null;
        }
        if (entry != null) {
            if (!entry.fingerprint().equals(fingerprint)) {
                throw IdempotencyRules.reused();
            }
            if (entry.answer() == null) {
                throw IdempotencyRules.inUse();
            }
            replays++;
            return new Begun.Replay(entry.answer());
        }
        if (entries.size() >= maxKeys) {
            purgeExpired(now);
            if (entries.size() >= maxKeys) {
                throw IdempotencyRules.limit(maxKeys);
            }
        }
        long owner = ++lastOwner;
        put(key, new Entry(fingerprint, owner, null, now + IdempotencyRules.RUNNING_LEASE.toMillis()));
        return new Begun.Run(owner);
    }

    @Override
    public void keep(IdempotencyKey key, Begun.Run run, KeptAnswer answer) {
        keep(key, run, answer, Duration.ofMillis(retentionMillis));
    }

    @Override
    public synchronized void keep(IdempotencyKey key, Begun.Run run, KeptAnswer answer, Duration retention) {
        Entry entry = entries.get(key);
        if (entry == null || entry.owner() != run.owner()) {
            return;
        }
        long expiresAt = wallMillis.getAsLong() + retention.toMillis();
        try {
            log.kept(new AnswerLog.SavedAnswer(key, answer, expiresAt));
        } catch (RuntimeException failed) {
            remove(key);
            throw failed;
        }
        remove(key); // put back at the end (the purge reads every entry, so answers of any retention expire)
        put(key, new Entry(entry.fingerprint(), 0, answer, expiresAt));
    }

    @Override
    public synchronized void release(IdempotencyKey key, Begun.Run run) {
        Entry entry = entries.get(key);
        if (entry != null && entry.owner() == run.owner() && entry.answer() == null) {
            remove(key);
        }
    }

    @Override
    public synchronized int purge() {
        int purged = purgeExpired(wallMillis.getAsLong());
        if (log.wantsCompaction(entries.size())) {
            List<AnswerLog.SavedAnswer> live = new ArrayList<>();
            entries.forEach((key, entry) -> {
                if (entry.answer() != null) {
                    live.add(new AnswerLog.SavedAnswer(key, entry.answer(), entry.expiresAt()));
                }
            });
            log.compact(live);
        }
        return purged;
    }

    @Override
    public synchronized Map<String, Long> heldByClock() {
        return Map.copyOf(perClock);
    }

    @Override
    public synchronized long replays() {
        return replays;
    }

    private int purgeExpired(long now) {
        int purged = 0;
        for (Iterator<Map.Entry<IdempotencyKey, Entry>> it = entries.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<IdempotencyKey, Entry> next = it.next();
            if (next.getValue().expiresAt() <= now) {
                it.remove();
                uncount(next.getKey().clock());
                purged++;
            }
        }
        return purged;
    }

    private void put(IdempotencyKey key, Entry entry) {
        if (entries.put(key, entry) == null) {
            perClock.merge(key.clock(), 1L, Long::sum);
        }
    }

    private void remove(IdempotencyKey key) {
        if (entries.remove(key) != null) {
            uncount(key.clock());
        }
    }

    private void uncount(String clock) {
        perClock.computeIfPresent(clock, (name, count) -> count == 1 ? null : count - 1);
    }

    /** A kept answer ({@code owner} 0), or a running request ({@code answer} null). */
    private record Entry(String fingerprint, long owner, KeptAnswer answer, long expiresAt) {
    }
}
