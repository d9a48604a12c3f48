package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.store.SchedulerMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Saved clocks with schedules on the PostgreSQL store: a load writes the rows a live schedule has (its schedule row,
 * its pending occurrence a timer with {@code triggered} false, a triggered one with it true), counts the schedules,
 * and is one transaction: a load refused at the capacity, after its rows were inserted, leaves none of them.
 */
class PostgresSnapshotSchedulesTest {

    private static final int CAPACITY = 8;

    private static TestDatabase database;
    private static PostgresStore store;
    private static FreshClocks clocks;

    @BeforeAll
    static void openStore() {
        database = TestDatabase.create(PostgresSnapshotSchedulesTest.class, 4);
        store = PostgresStore.open(database.dataSource(), CAPACITY, 10_000, 1_000, ClockSettings.Mode.VIRTUAL,
                SchedulerMetrics.NONE, PostgresStore.Timeouts.DEFAULT, PostgresStore.Schedules.DEFAULT);
        clocks = new FreshClocks(store, "snap");
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    @AfterEach
    void budgetStillMatchesTheRows() {
        assertThat(store.budgetMatchesRows().ok()).as(store.budgetMatchesRows().detail()).isTrue();
    }

    private static ScheduleSpec every(long millis, Long limit) {
        return new ScheduleSpec(null, millis, null, null, null, limit, 3, "{\"s\":1}", null, false);
    }

    /** A clock with a pending occurrence, a triggered one, a done schedule and a client's timer: 3 pending timers. */
    private static String scenario() {
        String clock = clocks.next(0, null);
        store.schedules().put(clock, "done", every(1_000, 1L), null);
        store.timers().advance(clock, 5_000L, null, 100);
        store.schedules().put(clock, "tick", every(2_000, null), null);
        store.schedules().trigger(clock, "tick");
        store.timers().add(clock, "client", 3_000, 0, null);
        return clock;
    }

    @Test
    void aLoad_writesTheRowsALiveScheduleHas_andTheLoadedClockFiresAsTheSource() throws SQLException {
        String source = scenario();
        ClockSnapshot saved = store.clockSnapshots().snapshot(source);
        assertThat(saved.schedules()).extracting(s -> s.id() + ":" + s.state().wire())
                .containsExactly("done:done", "tick:active");
        assertThat(saved.timers()).extracting(t -> t.id() + "/" + t.schedule())
                .containsExactlyInAnyOrder("tick:5000/tick", "tick:7000/tick", "client/null");
        long schedulesBefore = scheduleCount();

        String loaded = source + "-loaded";
        store.clockSnapshots().load(loaded, saved);

        assertThat(scheduleCount()).isEqualTo(schedulesBefore + 2);
        assertThat(triggeredColumn(loaded)).isEqualTo(triggeredColumn(source))
                .containsExactly("client:false", "tick:5000:true", "tick:7000:false");
        assertThat(store.schedules().list(loaded)).isEqualTo(store.schedules().list(source));
        assertThat(withName(store.clockSnapshots().snapshot(loaded), source)).isEqualTo(withName(saved, source));
        for (long to : new long[] {5_000, 9_000, 20_000}) {
            assertThat(fired(loaded, to)).as("to " + to).isEqualTo(fired(source, to));
        }
        assertThat(store.schedules().list(loaded)).isEqualTo(store.schedules().list(source));
    }

    @Test
    void aLoadRefusedAtTheCapacity_afterItsRowsWereInserted_leavesNothing() throws SQLException {
        String source = scenario();
        ClockSnapshot saved = store.clockSnapshots().snapshot(source);
        store.clockSnapshots().load(source + "-first", saved);          // 6 of the 8 pending timers taken
        long schedulesBefore = scheduleCount();

        String refused = source + "-refused";
        assertThatThrownBy(() -> store.clockSnapshots().load(refused, saved))
                .isInstanceOfSatisfying(ProblemException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CAPACITY_EXCEEDED));

        assertThat(scheduleCount()).isEqualTo(schedulesBefore);
        assertThat(rowsOf(refused)).isZero();
        assertThatThrownBy(() -> store.schedules().list(refused)).isInstanceOfSatisfying(ProblemException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
    }

    private static List<String> fired(String clock, long to) {
        return store.timers().advance(clock, null, to, 100).fired().stream()
                .map(t -> t.id() + "@" + t.fireTime() + "/" + t.priority() + "/" + t.schedule() + "/" + t.payload())
                .toList();
    }

    private static ClockSnapshot withName(ClockSnapshot snapshot, String name) {
        return new ClockSnapshot(name, snapshot.settings(), snapshot.now(), snapshot.nextSequence(),
                List.copyOf(snapshot.timers()), snapshot.schedules(), List.copyOf(snapshot.deliveries()));
    }

    private static long scheduleCount() throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement select = connection.prepareStatement("SELECT schedules FROM schedule_count");
             ResultSet row = select.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }

    private static List<String> triggeredColumn(String clock) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT id, triggered FROM timers WHERE clock = ? ORDER BY id")) {
            select.setString(1, clock);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    rows.add(row.getString(1) + ":" + row.getBoolean(2));
                }
            }
        }
        return rows;
    }

    private static long rowsOf(String clock) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement select = connection.prepareStatement("SELECT (SELECT count(*) FROM clocks WHERE name = ?)"
                     + " + (SELECT count(*) FROM timers WHERE clock = ?) + (SELECT count(*) FROM schedules"
                     + " WHERE clock = ?)")) {
            for (int i = 1; i <= 3; i++) {
                select.setString(i, clock);
            }
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
