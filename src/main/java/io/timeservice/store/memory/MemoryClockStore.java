package io.timeservice.store.memory;

import java.util.List;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockChange;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.ClockView;
import io.timeservice.model.QueueStatus;
import io.timeservice.store.ClockStore;

/** The memory store's clocks: {@link ClockRegistry} as it is. */
public final class MemoryClockStore implements ClockStore {

    private final ClockRegistry clocks;

    public MemoryClockStore(ClockRegistry clocks) {
        this.clocks = clocks;
    }

    @Override
    public ClockView.Created create(String name, long now, ClockSettings settings) {
        ClockRegistry.Created created = clocks.create(name, now, settings);
        return new ClockView.Created(view(created.clock()), created.created());
    }

    @Override
    public ClockView.Created copy(String name, String source) {
        return new ClockView.Created(view(clocks.fork(name, source).clock()), true);
    }

    @Override
    public ClockSnapshot snapshot(String name) {
        ClockRegistry.Clock clock = clocks.get(name);
        return ClockSnapshots.of(clock.name(), clock.scheduler().copied((state, weight) -> { }));
    }

    @Override
    public ClockView.Created load(String name, ClockSnapshot snapshot) {
        return new ClockView.Created(view(clocks.load(name, snapshot).clock()), true);
    }

    @Override
    public ClockView get(String name) {
        return view(clocks.get(name));
    }

    @Override
    public List<ClockView> list(int limit, String after) {
        return ClockView.ofEach(clocks.list(limit, after), this::view);
    }

    @Override
    public ClockView rerate(String name, ClockRate rate) {
        return view(clocks.rerate(name, rate));
    }

    @Override
    public ClockView change(String name, ClockChange change) {
        return view(clocks.change(name, change));
    }

    @Override
    public void delete(String name) {
        clocks.delete(name);
    }

    private ClockView view(ClockRegistry.Clock clock) {
        QueueStatus status = clock.scheduler().status();
        ClockSettings settings = clock.settings();
        return new ClockView(clock.name(), status, settings, clock.createdAtWallMillis(), clocks.deletesAt(clock),
                settings.queues() ? clock.scheduler().deliveryCounts() : null, clock.scheduler().scheduleCount(),
                clock.number());
    }
}
