package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.timeservice.model.BatchOp;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.FiringPosition;
import io.timeservice.model.QueueListing;
import io.timeservice.model.Timer;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link TimerStore#page}, run against every store: pages of the firing order after a position, past
 * any number of timers, and found by id prefix (the operator console's timers section).
 */
public abstract class TimerPageContract extends StoreContract {

    /** 600 timers with fire times and priorities that tie often, ids {@code a-...} and {@code b-...}. */
    private List<Timer> sixHundred() {
        Random random = new Random(45);
        List<BatchOp> adds = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            adds.add(new BatchOp.Add((i % 3 == 0 ? "b-" : "a-") + i, Due.after(10 + random.nextInt(40)),
                    random.nextInt(3) - 1, null));
        }
        timers().batch(null, adds.subList(0, 300));
        timers().batch(null, adds.subList(300, 600));
        return timers().firstN(null, 1_000).timers();
    }

    @Test
    void page_walksTheWholeFiringOrder_pageAfterPage_withoutGapsOrRepeats() {
        List<Timer> all = sixHundred();
        assertThat(all).hasSize(600);
        List<Timer> paged = new ArrayList<>();
        FiringPosition after = null;
        for (int pages = 0; pages < 100; pages++) {
            QueueListing page = timers().page(null, after, null, 37);
            assertThat(page.size()).isEqualTo(600);
            paged.addAll(page.timers());
            if (page.timers().size() < 37) {
                break;
            }
            after = FiringPosition.of(page.timers().get(36));
        }
        assertThat(paged).isEqualTo(all);
        assertThat(timers().page(null, FiringPosition.of(all.get(599)), null, 10).timers()).isEmpty();
        assertThat(timers().page(null, FiringPosition.of(all.get(299)), null, 2).timers())
                .containsExactly(all.get(300), all.get(301));
        // a position between timers: the next one after it
        Timer t = all.get(400);
        assertThat(timers().page(null, new FiringPosition(t.fireTime(), t.priority(), t.sequence() - 1), null, 1)
                .timers().get(0).fireTime()).isEqualTo(t.fireTime());
    }

    @Test
    void page_byIdPrefix_findsOnlyThose_inFiringOrder_andPagesOnAfterAPosition() {
        List<Timer> all = sixHundred();
        List<Timer> bs = all.stream().filter(timer -> timer.id().startsWith("b-")).toList();
        assertThat(bs).hasSize(200);
        QueueListing first = timers().page(null, null, "b-", 150);
        assertThat(first.timers()).isEqualTo(bs.subList(0, 150));
        assertThat(first.size()).isEqualTo(600);
        assertThat(timers().page(null, FiringPosition.of(bs.get(149)), "b-", 150).timers())
                .isEqualTo(bs.subList(150, 200));
        assertThat(timers().page(null, null, "b-3", 1_000).timers()).extracting(Timer::id)
                .allMatch(id -> id.startsWith("b-3")).contains("b-3", "b-30", "b-300");
        assertThat(timers().page(null, null, "a-597", 10).timers()).isEmpty(); // 597 is b-
        assertThat(timers().page(null, null, "b-0", 10).timers()).extracting(Timer::id).containsExactly("b-0");
    }

    /**
     * The prefix's edges: every character an id may hold after it (from {@code -} to {@code ~}, the highest), the
     * prefix itself as a whole id, and ids just outside it on both sides ({@code b} and {@code b.} around
     * {@code b-}); a prefix no id can start with (characters the id rules refuse, U+0000 among them) finds nothing.
     */
    @Test
    void page_byIdPrefix_takesExactlyTheIdsThatStartWithIt_atItsEdges() {
        List<String> ids = List.of("b", "b-", "b--", "b-0", "b-:", "b-A", "b-_", "b-z", "b-~", "b-~~", "b.", "b.-",
                "a~", "c", "B-");
        List<BatchOp> adds = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            adds.add(new BatchOp.Add(ids.get(i), Due.after(100 - i), 0, null));
        }
        timers().batch(null, adds);

        assertThat(timers().page(null, null, "b-", 100).timers()).extracting(Timer::id)
                .containsExactly("b-~~", "b-~", "b-z", "b-_", "b-A", "b-:", "b-0", "b--", "b-"); // firing order
        assertThat(timers().page(null, null, "b", 100).timers()).hasSize(12);
        assertThat(timers().page(null, null, "b-~", 100).timers()).extracting(Timer::id)
                .containsExactly("b-~~", "b-~");
        assertThat(timers().page(null, null, "a~", 100).timers()).extracting(Timer::id).containsExactly("a~");
        for (String none : List.of("b-~~~", "b-\u007F", "b-\u00e9", "\u00e9", "b-\u0000", "\u0000", "b/", "~")) {
            QueueListing page = timers().page(null, null, none, 100);
            assertThat(page.timers()).as("prefix %s", none).isEmpty();
            assertThat(page.size()).isEqualTo(15);
        }
    }

    @Test
    void page_refusesALimitBelowOne_andAnUnknownClock() {
        assertRefused(() -> timers().page(null, null, null, 0), ErrorCode.INVALID_LIMIT, "limit must be >= 1: 0");
        assertRefused(() -> timers().page("nowhere", null, "x", 5), ErrorCode.CLOCK_NOT_FOUND,
                "no clock is named nowhere");
    }
}
