package io.timeservice.store.memory.journal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Reservation;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.RecoveredSnapshot;
import io.timeservice.store.memory.SavedDelivery;
import io.timeservice.store.memory.ScheduleImage;

/**
 * The journal bodies of clocks, beside {@link RecordCodec}, which hands them here: a record of a clock (its number,
 * then the record's own body), a clock created, forked, loaded from a saved clock, and deleted (fields and versions
 * in {@link RecordTag}). Records without a clock belong to the {@code default} clock (number 0). A number that fits
 * in u32 is written as one (as every journal before version 7 wrote it), a larger one as a u64 under a tag of its
 * own; each is read wherever it is. Creations, forks and loads stand alone; a deletion is only inside a clock's
 * record.
 */
final class ClockRecords {

    /** The fewest bytes of a loaded clock's timer (a type-1 body) and delivery (a type-22 body). */
    private static final int MIN_TIMER_BYTES = 54;
    private static final int MIN_DELIVERY_BYTES = 70;

    private ClockRecords() {
    }

    /** Writes {@code mutation}'s body when it is of this family; whether it was. */
    static boolean encode(Mutation mutation, GrowableBuffer out) {
        if (mutation instanceof Mutation.OnClock on) {
            putClockNumber(on.clock(), RecordTag.ON_CLOCK, RecordTag.ON_WIDE_CLOCK, out);
            RecordCodec.encodeBody(on.mutation(), out);
        } else if (mutation instanceof Mutation.ClockCreated created) {
            if (created.settings().isScaled()) {
                out.putByte(RecordTag.SCALED_CLOCK_CREATED.code);
                out.putLong(created.number());
            } else {
                putClockNumber(created.number(), RecordTag.CLOCK_CREATED_WITH_SETTINGS, RecordTag.WIDE_CLOCK_CREATED,
                        out);
            }
            out.putLong(created.now());
            out.putLong(created.createdAtWallMillis());
            out.putLong(created.firstSequence());
            out.putString(created.name());
            SettingsRecords.putSettings(created.settings(), out);
        } else if (mutation instanceof Mutation.ClockForked forked) {
            out.putByte(RecordTag.CLOCK_FORKED_AT.code);
            out.putLong(forked.number());
            out.putLong(forked.source());
            out.putLong(forked.createdAtWallMillis());
            out.putLong(forked.lastSequence());
            out.putLong(forked.copiedAt());
            out.putString(forked.name());
        } else if (mutation instanceof Mutation.ClockLoaded loaded) {
            putLoaded(loaded, out);
        } else if (mutation instanceof Mutation.ClockDeleted) {
            out.putByte(RecordTag.CLOCK_DELETED.code);
        } else if (mutation instanceof Mutation.AcrossClocks across) {
            out.putByte(RecordTag.ACROSS_CLOCKS.code);
            out.putInt(across.parts().size());
            for (Mutation.OnClock part : across.parts()) {
                out.putLong(part.clock());
                RecordCodec.encodeBody(part.mutation(), out);
            }
        } else {
            return false;
        }
        return true;
    }

    private static void putLoaded(Mutation.ClockLoaded loaded, GrowableBuffer out) {
        RecoveredSnapshot snapshot = loaded.snapshot();
        out.putByte(RecordTag.CLOCK_LOADED.code);
        out.putLong(loaded.number());
        out.putLong(loaded.createdAtWallMillis());
        out.putString(loaded.name());
        out.putLong(snapshot.now());
        out.putLong(snapshot.firedThrough());
        out.putLong(snapshot.lastSequence());
        SettingsRecords.putSettings(snapshot.settings(), out);
        out.putInt(snapshot.timers().size());
        for (Mutation.Added added : snapshot.timers()) {
            TimerRecords.putAdded(added, out);
        }
        out.putInt(snapshot.deliveries().size());
        for (SavedDelivery saved : snapshot.deliveries()) {
            DeliveryRecords.putDelivery(saved, out);
        }
        ScheduleRecords.putSection(snapshot.schedules(), snapshot.deliveries(), out);
        if (!snapshot.reservations().isEmpty()) { // format 14 on; a record without them reads as before
            out.putInt(snapshot.reservations().size());
            for (Reservation reservation : snapshot.reservations()) {
                out.putByte((byte) reservation.state().ordinal());
                out.putLong(reservation.time());
                out.putLong(reservation.sequence());
                out.putString(reservation.id());
            }
        }
    }

    /** A loaded clock's reserved ids, after its schedules (format 14 on). */
    private static List<Reservation> getReservations(ByteBuffer body) {
        int count = body.getInt();
        if (count < 0 || count > body.remaining() / 21) {
            throw new RecordCodec.CorruptRecordException("a loaded clock of " + count
                    + " reserved ids, longer than its record");
        }
        Reservation.State[] states = Reservation.State.values();
        List<Reservation> reservations = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int state = body.get();
            long time = body.getLong();
            long sequence = body.getLong();
            String id = RecordCodec.requireString(RecordCodec.getString(body), "reserved id");
            if (state < 0 || state >= states.length) {
                throw new RecordCodec.CorruptRecordException("a reserved id in state " + state);
            }
            reservations.add(new Reservation(id, states[state], time, sequence));
        }
        return reservations;
    }

    /** Decodes the body after its tag {@code tag}, one of this family's ({@code outermost}: in no other record). */
    static Mutation decode(RecordTag tag, ByteBuffer body, boolean outermost) {
        return switch (tag) {
            case ON_CLOCK, ON_WIDE_CLOCK -> {
                if (!outermost) {
                    throw new RecordCodec.CorruptRecordException("a clock's record inside a clock's record");
                }
                long clock = getClockNumber(tag == RecordTag.ON_WIDE_CLOCK, body);
                Mutation inner = RecordCodec.decodeBody(body, false);
                if (inner instanceof Mutation.ClockCreated) {
                    throw new RecordCodec.CorruptRecordException("a clock's record holds a clock creation");
                }
                yield new Mutation.OnClock(clock, inner);
            }
            case CLOCK_CREATED -> {
                requireOutermost(outermost, "a clock creation");
                long number = getClockNumber(false, body);
                long now = body.getLong();
                long wall = body.getLong();
                long firstSequence = body.getLong();
                yield new Mutation.ClockCreated(number, RecordCodec.getString(body), now, wall, firstSequence);
            }
            case CLOCK_CREATED_WITH_SETTINGS, WIDE_CLOCK_CREATED, SCALED_CLOCK_CREATED -> {
                requireOutermost(outermost, "a clock creation");
                long number = getClockNumber(tag != RecordTag.CLOCK_CREATED_WITH_SETTINGS, body);
                long now = body.getLong();
                long wall = body.getLong();
                long firstSequence = body.getLong();
                String name = RecordCodec.getString(body);
                ClockSettings settings = SettingsRecords.getSettings(body);
                if (settings.isScaled() != (tag == RecordTag.SCALED_CLOCK_CREATED)) {
                    throw new RecordCodec.CorruptRecordException("a clock creation of type " + tag.code
                            + " with mode " + settings.mode());
                }
                yield new Mutation.ClockCreated(number, name, now, wall, firstSequence, settings);
            }
            case CLOCK_FORKED, CLOCK_FORKED_AT -> {
                requireOutermost(outermost, "a clock's copy");
                long number = body.getLong();
                long source = body.getLong();
                long wall = body.getLong();
                long lastSequence = body.getLong();
                long copiedAt = tag == RecordTag.CLOCK_FORKED ? Mutation.ClockForked.UNKNOWN_TIME : body.getLong();
                if (tag == RecordTag.CLOCK_FORKED_AT && copiedAt < 0) {
                    throw new RecordCodec.CorruptRecordException("a clock's copy at time " + copiedAt);
                }
                yield new Mutation.ClockForked(number, RecordCodec.requireString(RecordCodec.getString(body), "name"),
                        source, wall, lastSequence, copiedAt);
            }
            case CLOCK_LOADED -> {
                requireOutermost(outermost, "a loaded clock");
                yield getLoaded(body);
            }
            case ACROSS_CLOCKS -> {
                requireOutermost(outermost, "a batch across clocks");
                yield getAcross(body);
            }
            case CLOCK_DELETED -> {
                if (outermost) {
                    throw new RecordCodec.CorruptRecordException("a clock deletion outside a clock's record");
                }
                yield new Mutation.ClockDeleted();
            }
            default -> throw new IllegalArgumentException("not a clock record: " + tag);
        };
    }

    private static void requireOutermost(boolean outermost, String what) {
        if (!outermost) {
            throw new RecordCodec.CorruptRecordException("a clock's record holds " + what);
        }
    }

    /** A batch across clocks: its parts, each a clock's number and batch, no clock twice, as the encoder writes. */
    private static Mutation.AcrossClocks getAcross(ByteBuffer body) {
        int count = body.getInt();
        if (count < 1 || count > RecordCodec.MAX_BATCH_PARTS) {
            throw new RecordCodec.CorruptRecordException("a batch across " + count + " clocks");
        }
        List<Mutation.OnClock> parts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long clock = body.getLong();
            parts.add(new Mutation.OnClock(clock, RecordCodec.decodeBody(body, false)));
        }
        Mutation.AcrossClocks across = new Mutation.AcrossClocks(parts);
        String refused = RecordRefusals.acrossRefusal(across);
        if (refused != null) {
            throw new RecordCodec.CorruptRecordException(refused);
        }
        return across;
    }

    private static Mutation.ClockLoaded getLoaded(ByteBuffer body) {
        long number = body.getLong();
        long wall = body.getLong();
        String name = RecordCodec.requireString(RecordCodec.getString(body), "name");
        long now = body.getLong();
        long firedThrough = body.getLong();
        long lastSequence = body.getLong();
        ClockSettings settings = SettingsRecords.getSettings(body);
        int timerCount = body.getInt();
        if (timerCount < 0 || timerCount > body.remaining() / MIN_TIMER_BYTES) {
            throw new RecordCodec.CorruptRecordException("a loaded clock of " + timerCount
                    + " timers, longer than its record");
        }
        List<Mutation.Added> timers = new ArrayList<>(timerCount);
        for (int i = 0; i < timerCount; i++) {
            if (!(RecordCodec.decodeBody(body, false) instanceof Mutation.Added added) || added.timer().id() == null) {
                throw new RecordCodec.CorruptRecordException("a loaded clock's timer " + i
                        + " is not an add with an id");
            }
            timers.add(added);
        }
        int deliveryCount = body.getInt();
        if (deliveryCount < 0 || deliveryCount > body.remaining() / MIN_DELIVERY_BYTES) {
            throw new RecordCodec.CorruptRecordException("a loaded clock of " + deliveryCount
                    + " deliveries, longer than its record");
        }
        List<SavedDelivery> deliveries = new ArrayList<>(deliveryCount);
        for (int i = 0; i < deliveryCount; i++) {
            deliveries.add(DeliveryRecords.getDelivery(body));
        }
        ScheduleImage schedules = ScheduleImage.EMPTY;
        if (body.hasRemaining()) { // format 13 on: the schedules; before, the record ended with the deliveries
            ScheduleRecords.Section section = ScheduleRecords.getSection(body);
            schedules = section.image();
            deliveries = section.tag(deliveries);
        }
        List<Reservation> reservations = body.hasRemaining() ? getReservations(body) : List.of();
        return new Mutation.ClockLoaded(number, name, wall, new RecoveredSnapshot(now, lastSequence, lastSequence,
                timers, settings, deliveries, List.of(), firedThrough, null, schedules, reservations));
    }

    /** A clock's number as {@code narrow} and a u32 when it fits one (every journal before version 7), else wide. */
    private static void putClockNumber(long number, RecordTag narrow, RecordTag wide, GrowableBuffer out) {
        if (number < 0) {
            throw new IllegalArgumentException("a clock's number must be >= 0: " + number);
        }
        if (number <= 0xFFFF_FFFFL) {
            out.putByte(narrow.code);
            out.putInt((int) number);
        } else {
            out.putByte(wide.code);
            out.putLong(number);
        }
    }

    /**
     * Reads what {@link #putClockNumber} wrote after the tag. A u32 is unsigned: a version before 7 that numbered
     * past 2^31 - 1 wrapped to negative ints, which read as the numbers they stood for.
     */
    private static long getClockNumber(boolean wide, ByteBuffer body) {
        long number = wide ? body.getLong() : Integer.toUnsignedLong(body.getInt());
        if (number < 0) {
            throw new RecordCodec.CorruptRecordException("a clock numbered " + number);
        }
        return number;
    }
}
