package io.timeservice.store.memory.journal;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.timeservice.model.Delivery;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.SavedDelivery;
import io.timeservice.store.memory.ScheduleImage;

/**
 * The journal bodies of schedule changes (format version 8), beside {@link RecordCodec}, which hands them here:
 * schedule put, deleted, paused, resumed, triggered and a scheduled firing (fields and versions in {@link RecordTag});
 * each alone or inside a clock's record (8, 25). A spec is cron (string or -1), every, start, end, limit (each u8
 * present, then the long when present), zone (string or -1), priority u32, payload (string or -1), catchUp u8,
 * paused u8.
 */
final class ScheduleRecords {

    private ScheduleRecords() {
    }

    /** Why the decoder would refuse {@code change}, or null. */
    static String refusal(Mutation.ScheduleChange change) {
        if (change instanceof Mutation.SchedulePut put) {
            return put.id() == null || put.spec() == null ? "a schedule put without its id or spec" : null;
        } else if (change instanceof Mutation.ScheduleDeleted deleted) {
            return deleted.id() == null ? "a schedule deletion without its id" : null;
        } else if (change instanceof Mutation.SchedulePaused paused) {
            return paused.id() == null ? "a schedule pause without its id" : null;
        } else if (change instanceof Mutation.ScheduleResumed resumed) {
            return resumed.id() == null ? "a schedule resume without its id" : null;
        } else if (change instanceof Mutation.ScheduleTriggered triggered) {
            return triggered.id() == null ? "a schedule trigger without its id" : null;
        }
        Mutation.ScheduledFiring firing = (Mutation.ScheduledFiring) change;
        return firing.maxPops() < 1 ? "a scheduled firing of " + firing.maxPops() + " timers" : null;
    }

    static void encode(Mutation.ScheduleChange change, GrowableBuffer out) {
        if (change instanceof Mutation.SchedulePut put) {
            out.putByte(RecordTag.SCHEDULE_PUT.code);
            out.putLong(put.now());
            out.putLong(put.wallMillis());
            out.putLong(put.sequence());
            out.putString(put.id());
            putSpec(put.spec(), out);
        } else if (change instanceof Mutation.ScheduleDeleted deleted) {
            out.putByte(RecordTag.SCHEDULE_DELETED.code);
            out.putString(deleted.id());
        } else if (change instanceof Mutation.SchedulePaused paused) {
            out.putByte(RecordTag.SCHEDULE_PAUSED.code);
            out.putString(paused.id());
        } else if (change instanceof Mutation.ScheduleResumed resumed) {
            putCall(RecordTag.SCHEDULE_RESUMED, resumed.now(), resumed.wallMillis(), resumed.sequence(), resumed.id(),
                    out);
        } else if (change instanceof Mutation.ScheduleTriggered triggered) {
            putCall(RecordTag.SCHEDULE_TRIGGERED, triggered.now(), triggered.wallMillis(), triggered.sequence(),
                    triggered.id(), out);
        } else if (change instanceof Mutation.ScheduledFiring firing) {
            out.putByte(RecordTag.SCHEDULED_FIRING.code);
            out.putLong(firing.now());
            out.putInt(firing.maxPops());
            out.putLong(firing.firstSequence());
            out.putLong(firing.wallMillis());
        }
    }

    /** Decodes the body after its tag {@code tag}, one of this family's. */
    static Mutation.ScheduleChange decode(RecordTag tag, ByteBuffer body) {
        switch (tag) {
            case SCHEDULE_PUT -> {
                long now = body.getLong();
                long wall = body.getLong();
                long sequence = body.getLong();
                String id = required(RecordCodec.getString(body));
                return new Mutation.SchedulePut(id, getSpec(body), now, wall, sequence);
            }
            case SCHEDULE_DELETED -> {
                return new Mutation.ScheduleDeleted(required(RecordCodec.getString(body)));
            }
            case SCHEDULE_PAUSED -> {
                return new Mutation.SchedulePaused(required(RecordCodec.getString(body)));
            }
            case SCHEDULE_RESUMED, SCHEDULE_TRIGGERED -> {
                long now = body.getLong();
                long wall = body.getLong();
                long sequence = body.getLong();
                String id = required(RecordCodec.getString(body));
                return tag == RecordTag.SCHEDULE_RESUMED ? new Mutation.ScheduleResumed(id, now, wall, sequence)
                        : new Mutation.ScheduleTriggered(id, now, wall, sequence);
            }
            case SCHEDULED_FIRING -> {
                long now = body.getLong();
                int maxPops = body.getInt();
                if (maxPops < 1) {
                    throw new RecordCodec.CorruptRecordException("a scheduled firing of " + maxPops + " timers");
                }
                return new Mutation.ScheduledFiring(now, maxPops, body.getLong(), body.getLong());
            }
            default -> throw new IllegalArgumentException("not a schedule record: " + tag);
        }
    }

    /** A snapshot's schedule section, read back: the clock's schedules and the schedule of each delivery by sequence. */
    record Section(ScheduleImage image, Map<Long, String> deliverySchedules) {

        /** {@code deliveries} with their schedules as the section names them. */
        List<SavedDelivery> tag(List<SavedDelivery> deliveries) {
            if (deliverySchedules.isEmpty()) {
                return deliveries;
            }
            List<SavedDelivery> tagged = new ArrayList<>(deliveries.size());
            for (SavedDelivery saved : deliveries) {
                Delivery d = saved.delivery();
                String schedule = deliverySchedules.get(d.sequence());
                tagged.add(schedule == null ? saved : new SavedDelivery(new Delivery(d.id(), d.fireTime(),
                        d.priority(), d.sequence(), d.payload(), d.attempt(), d.state(), d.claim(), d.leaseUntil(),
                        d.retryAt(), d.readyAt(), d.deadReason(), schedule, d.traceContext(), d.key()), saved.leaseMillis()));
            }
            return tagged;
        }
    }

    /** One frame of the section ({@link #putSection}): a snapshot file's schedules of one clock. */
    static void writeSection(ScheduleImage image, List<SavedDelivery> deliveries, GrowableBuffer out) {
        int frameStart = out.length();
        out.putInt(0);
        out.putInt(0);
        int bodyStart = out.length();
        putSection(image, deliveries, out);
        int bodyLength = out.length() - bodyStart;
        out.putIntAt(frameStart, bodyLength);
        out.putIntAt(frameStart + 4, RecordCodec.crc32c(out.array(), bodyStart, bodyLength));
    }

    /**
     * The section's fields: u32 scheduleCount, each schedule (id, spec, u8 pending present then the u64 time, fired,
     * skipped, triggered, taken, version); u32 count of triggered occurrences (timer id, schedule id); u32 count of
     * deliveries of occurrences (sequence, schedule id). A snapshot file frames them ({@link #writeSection}); a
     * loaded clock's record 38 ends with them (format version 13).
     */
    static void putSection(ScheduleImage image, List<SavedDelivery> deliveries, GrowableBuffer out) {
        out.putInt(image.schedules().size());
        for (Schedule schedule : image.schedules()) {
            out.putString(schedule.id());
            putSpec(schedule.spec(), out);
            putOptionalLong(schedule.next(), out);
            out.putLong(schedule.fired());
            out.putLong(schedule.skipped());
            out.putLong(schedule.triggered());
            out.putLong(schedule.taken());
            out.putLong(schedule.version());
        }
        out.putInt(image.triggeredOccurrences().size());
        for (Map.Entry<String, String> triggered : image.triggeredOccurrences().entrySet()) {
            out.putString(triggered.getKey());
            out.putString(triggered.getValue());
        }
        List<SavedDelivery> tagged = deliveries.stream().filter(d -> d.delivery().schedule() != null).toList();
        out.putInt(tagged.size());
        for (SavedDelivery saved : tagged) {
            out.putLong(saved.delivery().sequence());
            out.putString(saved.delivery().schedule());
        }
    }

    static Section readSection(ByteBuffer body, Path file) {
        try {
            Section section = getSection(body);
            if (body.hasRemaining()) {
                throw new RecordCodec.CorruptRecordException(body.remaining() + " bytes left over");
            }
            return section;
        } catch (RuntimeException corrupt) {
            throw new JournalCorruptedException(file + ": a clock's schedules do not read back: "
                    + corrupt.getMessage());
        }
    }

    /** The fields {@link #putSection} wrote; the body goes on after them. */
    static Section getSection(ByteBuffer body) {
        int count = body.getInt();
        List<Schedule> schedules = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = required(RecordCodec.getString(body));
            ScheduleSpec spec = getSpec(body);
            Long next = getOptionalLong(body);
            schedules.add(new Schedule(id, spec, next, body.getLong(), body.getLong(), body.getLong(),
                    body.getLong(), body.getLong()));
        }
        Map<String, String> triggered = new HashMap<>();
        for (int i = body.getInt(); i > 0; i--) {
            triggered.put(required(RecordCodec.getString(body)), required(RecordCodec.getString(body)));
        }
        Map<Long, String> deliveries = new HashMap<>();
        for (int i = body.getInt(); i > 0; i--) {
            deliveries.put(body.getLong(), required(RecordCodec.getString(body)));
        }
        return new Section(new ScheduleImage(schedules, triggered), deliveries);
    }

    private static void putCall(RecordTag tag, long now, long wall, long sequence, String id, GrowableBuffer out) {
        out.putByte(tag.code);
        out.putLong(now);
        out.putLong(wall);
        out.putLong(sequence);
        out.putString(id);
    }

    /** A spec as {@link #putSpec} wrote it; also a snapshot's. */
    static ScheduleSpec getSpec(ByteBuffer body) {
        String cron = RecordCodec.getString(body);
        Long every = getOptionalLong(body);
        Long start = getOptionalLong(body);
        Long end = getOptionalLong(body);
        Long limit = getOptionalLong(body);
        String zone = RecordCodec.getString(body);
        int priority = body.getInt();
        String payload = RecordCodec.getString(body);
        int catchUp = body.get();
        int flags = body.get();
        if (catchUp < 0 || catchUp >= ScheduleSpec.CatchUp.values().length || (cron == null) == (every == null)
                || flags < 0 || flags > (PAUSED | TRACED | KEYED)) {
            throw new RecordCodec.CorruptRecordException("a schedule spec that does not read back");
        }
        String traceContext = (flags & TRACED) != 0 ? RecordCodec.getString(body) : null;
        String key = (flags & KEYED) != 0 ? RecordCodec.requireString(RecordCodec.getString(body), "schedule key")
                : null;
        return new ScheduleSpec(cron, every, zone, start, end, limit, priority, payload,
                ScheduleSpec.CatchUp.values()[catchUp], (flags & PAUSED) != 0, traceContext, key);
    }

    static void putSpec(ScheduleSpec spec, GrowableBuffer out) {
        out.putString(spec.cron());
        putOptionalLong(spec.every(), out);
        putOptionalLong(spec.start(), out);
        putOptionalLong(spec.end(), out);
        putOptionalLong(spec.limit(), out);
        out.putString(spec.zone());
        out.putInt(spec.priority());
        out.putString(spec.payload());
        out.putByte((byte) spec.catchUp().ordinal());
        out.putByte((byte) ((spec.paused() ? PAUSED : 0) | (spec.traceContext() != null ? TRACED : 0)
                | (spec.key() != null ? KEYED : 0)));
        if (spec.traceContext() != null) {
            out.putString(spec.traceContext());
        }
        if (spec.key() != null) {
            out.putString(spec.key());
        }
    }

    /**
     * The spec's flags byte: bit 0 paused; bit 1 (format 16) a trace context follows; bit 2 (format 17) the
     * flow-control key follows (after the context, if any).
     */
    private static final int PAUSED = 1;
    private static final int TRACED = 2;
    private static final int KEYED = 4;

    private static void putOptionalLong(Long value, GrowableBuffer out) {
        out.putByte((byte) (value == null ? 0 : 1));
        if (value != null) {
            out.putLong(value);
        }
    }

    private static Long getOptionalLong(ByteBuffer body) {
        int present = body.get();
        if (present != 0 && present != 1) {
            throw new RecordCodec.CorruptRecordException("an optional number flagged " + present);
        }
        return present == 1 ? body.getLong() : null;
    }

    private static String required(String id) {
        if (id == null) {
            throw new RecordCodec.CorruptRecordException("a schedule record without its id");
        }
        return id;
    }
}
