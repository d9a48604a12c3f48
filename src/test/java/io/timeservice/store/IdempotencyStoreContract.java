package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.IdempotencyRules;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The rules of draft-ietf-httpapi-idempotency-key-header as both {@link IdempotencyStore}s keep them: the first request
 * runs, a repeat gets the kept answer, another request with the key is refused (422), a repeat while the first runs is
 * refused (409), a released key runs again, answers expire after the retention (on an injected wall clock), keys are
 * scoped to clock and caller, and the store holds at most its cap. A store's suite says how to open one.
 */
public abstract class IdempotencyStoreContract {

    protected static final Duration RETENTION = Duration.ofHours(24);
    protected static final IdempotencyKey KEY = new IdempotencyKey("default", "anonymous", "k-1");
    protected static final String ADD = "POST /timers a1";
    protected static final KeptAnswer CREATED = new KeptAnswer(ADD, 201,
            List.of(new KeptAnswer.Header("ETag", "\"1.1\""), new KeptAnswer.Header("Location", "/timers/a")),
            "{\"id\":\"a\"}".getBytes(StandardCharsets.UTF_8));

    /** The wall clock of the store under test, in milliseconds. */
    protected final AtomicLong wall = new AtomicLong(1_700_000_000_000L);
    private IdempotencyStore store;

    /** Opens an empty store reading the time from {@code wallMillis}. */
    protected abstract IdempotencyStore open(LongSupplier wallMillis, Duration retention, long maxKeys);

    /** Closes what {@link #open} opened. */
    protected void close() {
    }

    @BeforeEach
    final void openStore() {
        store = open(wall::get, RETENTION, 1_000);
    }

    @AfterEach
    final void closeStore() {
        close();
    }

    protected final IdempotencyStore store() {
        return store;
    }

    @Test
    void theFirstRequestRunsAndItsRepeatGetsTheKeptAnswer() {
        IdempotencyStore.Begun first = store.begin(KEY, ADD);
        assertThat(first).isInstanceOf(IdempotencyStore.Begun.Run.class);
        store.keep(KEY, (IdempotencyStore.Begun.Run) first, CREATED);

        IdempotencyStore.Begun repeat = store.begin(KEY, ADD);

        assertThat(repeat).isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));
        assertThat(store.begin(KEY, ADD)).isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));
        assertThat(store.replays()).isEqualTo(2);
    }

    @Test
    void anotherRequestWithTheKeyIsRefusedWhetherTheFirstRanOrRuns() {
        IdempotencyStore.Begun.Run first = (IdempotencyStore.Begun.Run) store.begin(KEY, ADD);
        assertRefused(() -> store.begin(KEY, "POST /timers b2"), IdempotencyRules.reused().getMessage(),
                ErrorCode.IDEMPOTENCY_KEY_REUSED);
        store.keep(KEY, first, CREATED);
        assertRefused(() -> store.begin(KEY, "POST /batch a1"), IdempotencyRules.reused().getMessage(),
                ErrorCode.IDEMPOTENCY_KEY_REUSED);
        assertThat(store.begin(KEY, ADD)).isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));
    }

    @Test
    void aRepeatWhileTheFirstRunsIsRefusedAsInUse() {
        store.begin(KEY, ADD);

        assertRefused(() -> store.begin(KEY, ADD), IdempotencyRules.inUse().getMessage(),
                ErrorCode.IDEMPOTENCY_KEY_IN_USE);
        assertThat(store.replays()).isZero();
    }

    @Test
    void aReleasedKeyRunsAgain() {
        IdempotencyStore.Begun.Run first = (IdempotencyStore.Begun.Run) store.begin(KEY, ADD);
        store.release(KEY, first); // a 503: not kept

        IdempotencyStore.Begun retry = store.begin(KEY, ADD);

        assertThat(retry).isInstanceOf(IdempotencyStore.Begun.Run.class);
        assertThat(store.heldByClock()).isEqualTo(Map.of("default", 1L));
    }

    @Test
    void aKeptAnswerExpiresAfterTheRetention() {
        store.keep(KEY, (IdempotencyStore.Begun.Run) store.begin(KEY, ADD), CREATED);
        wall.addAndGet(RETENTION.toMillis() - 1);
        assertThat(store.begin(KEY, ADD)).isInstanceOf(IdempotencyStore.Begun.Replay.class);

        wall.addAndGet(1);

        assertThat(store.begin(KEY, "POST /timers other")).isInstanceOf(IdempotencyStore.Begun.Run.class);
    }

    @Test
    void anAnswerKeptForAShorterRetention_expiresAtIt_andThePurgeMakesRoomForOthers() {
        close();
        store = open(wall::get, RETENTION, 2);
        IdempotencyKey ack = new IdempotencyKey("default", "anonymous", "ack-1");
        store.keep(ack, (IdempotencyStore.Begun.Run) store.begin(ack, ADD), CREATED, Duration.ofMinutes(10));
        store.keep(KEY, (IdempotencyStore.Begun.Run) store.begin(KEY, ADD), CREATED);
        wall.addAndGet(Duration.ofMinutes(10).toMillis() - 1);
        assertThat(store.begin(ack, ADD)).isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));

        wall.addAndGet(1);

        assertThat(store.begin(new IdempotencyKey("default", "anonymous", "k-3"), ADD))
                .as("the cap makes room as the short-lived answer expires, though an older one lives on")
                .isInstanceOf(IdempotencyStore.Begun.Run.class);
        assertThat(store.begin(KEY, ADD)).isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));
        assertThat(store.heldByClock()).isEqualTo(Map.of("default", 2L));
    }

    @Test
    void aRunningKeyWhoseRequestNeverAnsweredIsFreeAfterItsLease() {
        IdempotencyStore.Begun.Run lost = (IdempotencyStore.Begun.Run) store.begin(KEY, ADD);
        wall.addAndGet(IdempotencyRules.RUNNING_LEASE.toMillis());

        IdempotencyStore.Begun.Run next = (IdempotencyStore.Begun.Run) store.begin(KEY, ADD);
        store.keep(KEY, lost, CREATED); // too late: the key is the next request's now
        store.release(KEY, lost);

        assertRefused(() -> store.begin(KEY, ADD), IdempotencyRules.inUse().getMessage(),
                ErrorCode.IDEMPOTENCY_KEY_IN_USE);
        store.keep(KEY, next, CREATED);
        assertThat(store.begin(KEY, ADD)).isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));
    }

    @Test
    void keysAreScopedToTheClockAndTheCaller() {
        store.keep(KEY, (IdempotencyStore.Begun.Run) store.begin(KEY, ADD), CREATED);

        assertThat(store.begin(new IdempotencyKey("default", "token:ab", "k-1"), ADD))
                .isInstanceOf(IdempotencyStore.Begun.Run.class);
        assertThat(store.begin(new IdempotencyKey("c2", "anonymous", "k-1"), ADD))
                .isInstanceOf(IdempotencyStore.Begun.Run.class);
        assertThat(store.heldByClock()).isEqualTo(Map.of("default", 2L, "c2", 1L));
    }

    @Test
    void theStoreHoldsAtMostItsCapAndMakesRoomAsKeysExpire() {
        close();
        store = open(wall::get, RETENTION, 2);
        store.keep(KEY, (IdempotencyStore.Begun.Run) store.begin(KEY, ADD), CREATED);
        wall.addAndGet(1_000);
        store.begin(new IdempotencyKey("default", "anonymous", "k-2"), ADD);

        assertRefused(() -> store.begin(new IdempotencyKey("default", "anonymous", "k-3"), ADD),
                IdempotencyRules.limit(2).getMessage(), ErrorCode.IDEMPOTENCY_KEY_LIMIT);
        assertThat(store.begin(KEY, ADD)).as("a repeat is answered at the cap")
                .isEqualTo(new IdempotencyStore.Begun.Replay(CREATED));

        wall.addAndGet(RETENTION.toMillis() - 1_000);
        assertThat(store.begin(new IdempotencyKey("default", "anonymous", "k-3"), ADD))
                .isInstanceOf(IdempotencyStore.Begun.Run.class);
    }

    @Test
    void thePurgeDeletesWhatExpired() {
        store.keep(KEY, (IdempotencyStore.Begun.Run) store.begin(KEY, ADD), CREATED);
        wall.addAndGet(1);
        IdempotencyKey later = new IdempotencyKey("default", "anonymous", "k-2");
        store.keep(later, (IdempotencyStore.Begun.Run) store.begin(later, ADD), CREATED);
        wall.addAndGet(RETENTION.toMillis() - 1);

        assertThat(store.purge()).isEqualTo(1);
        assertThat(store.heldByClock()).isEqualTo(Map.of("default", 1L));
        assertThat(store.begin(later, ADD)).isInstanceOf(IdempotencyStore.Begun.Replay.class);
    }

    protected static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String message,
                                        ErrorCode code) {
        StoreContract.assertRefused(call, code, message);
    }
}
