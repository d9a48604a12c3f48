package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the four contract suites share: a fresh store per case ({@link Stores.Limits#ROOMY} unless the case
 * {@link #reopen}s it with its own limits), and the refusal check that holds both stores to one code AND one text.
 * A store's suite is a subclass that says how to open it (as db-scheduler's {@code CompatibilityTest} and River's
 * {@code riverdrivertest}); the memory store's opens a fresh registry, the PostgreSQL store's empties its class's
 * schema.
 */
public abstract class StoreContract {

    private Stores stores;

    /** Opens the store under test with {@code limits}, empty but for its default clock (virtual, at 0). */
    protected abstract Stores open(Stores.Limits limits);

    @BeforeEach
    final void openStore() {
        stores = open(Stores.Limits.ROOMY);
    }

    @AfterEach
    final void closeStore() {
        stores.close();
    }

    /** Closes the case's store and opens a fresh, empty one with {@code limits}. */
    protected final void reopen(Stores.Limits limits) {
        stores.close();
        stores = open(limits);
    }

    protected final Stores stores() {
        return stores;
    }

    protected final TimerStore timers() {
        return stores.timers();
    }

    protected final DeliveryStore deliveries() {
        return stores.deliveries();
    }

    protected final ClockStore clocks() {
        return stores.clocks();
    }

    protected final ScheduleStore schedules() {
        return stores.schedules();
    }

    /** The call is refused with {@code code} and exactly {@code message}; returns the refusal. */
    protected static ProblemException assertRefused(ThrowingCallable call, ErrorCode code, String message) {
        ProblemException refused = catchThrowableOfType(ProblemException.class, call);
        assertThat(refused).as("a refusal with %s", code).isNotNull();
        assertThat(refused.code()).as(refused.getMessage()).isEqualTo(code);
        assertThat(refused.getMessage()).isEqualTo(message);
        return refused;
    }
}
