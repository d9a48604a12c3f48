package io.timeservice.store.postgres;

import java.util.List;

import io.timeservice.model.ClockChange;
import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.ClockView;
import io.timeservice.model.Limits;
import io.timeservice.store.ClockStore;

/** The PostgreSQL store's clocks behind the web layer; a clock's retry policy is kept in {@code clocks.settings}. */
public final class PostgresClockStore implements ClockStore {

    private final PostgresStore store;

    public PostgresClockStore(PostgresStore store) {
        this.store = store;
    }

    @Override
    public ClockView.Created create(String name, long now, ClockSettings settings) {
        PostgresClockRegistry.Created created = store.clocks().create(name, now, settings);
        return new ClockView.Created(view(created.clock()), created.created());
    }

    @Override
    public ClockView.Created copy(String name, String source) {
        return new ClockView.Created(view(store.clockCopy().copy(name, source)), true);
    }

    @Override
    public ClockSnapshot snapshot(String name) {
        return store.clockSnapshots().snapshot(name);
    }

    @Override
    public ClockView.Created load(String name, ClockSnapshot snapshot) {
        return new ClockView.Created(view(store.clockSnapshots().load(name, snapshot)), true);
    }

    @Override
    public ClockView get(String name) {
        return view(store.clocks().get(name));
    }

    @Override
    public List<ClockView> list(int limit, String after) {
        return ClockView.ofEach(store.clocks().list(limit, after), this::view);
    }

    @Override
    public ClockView rerate(String name, ClockRate rate) {
        return view(store.clocks().rerate(name, rate));
    }

    @Override
    public ClockView change(String name, ClockChange change) {
        return view(store.clocks().change(name, change));
    }

    @Override
    public void delete(String name) {
        store.clocks().delete(name);
    }

    private ClockView view(StoredClock clock) {
        ClockSettings settings = clock.settings();
        // the default clock always existed: created at 0, as in the memory store
        long createdAt = Limits.DEFAULT_CLOCK.equals(clock.name()) ? 0 : clock.createdAt();
        return new ClockView(clock.name(), store.timerReads().status(clock.name()), settings, createdAt, null,
                settings.queues() ? store.deliveries().counts(clock.name()) : null,
                store.schedules().count(clock.name()), clock.incarnation());
    }
}
