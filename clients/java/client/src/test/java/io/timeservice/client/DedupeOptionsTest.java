package io.timeservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client's dedupe options as they go over the wire and come back: a clock's {@code dedupeWindow}, an add's
 * {@code onConflict} (alone or in a batch) and the answer's {@code result} (a kept reservation has no timer, only
 * {@code previous}). A stub
 * on a loopback port answers scripted bodies and records the requests; the service's side is its own tests'.
 */
class DedupeOptionsTest {

    private final ScriptedService service = new ScriptedService();
    private final List<String> requests = service.requests();
    private final TimeServiceClient client = service.client();

    @AfterEach
    void stopStub() {
        service.close();
    }

    @Test
    void theWindowIsSentWithTheClock_andOnlyWhenSet() {
        assertTrue(ClockOptions.virtual().dedupeWindow(Duration.ofHours(1)).json().toString()
                .contains("\"dedupeWindow\":3600000"));
        assertFalse(ClockOptions.virtual().json().toString().contains("dedupeWindow"));
        assertEquals(ClockOptions.virtual().dedupeWindow(Duration.ofSeconds(60)),
                ClockOptions.virtual().dedupeWindow(Duration.ofMinutes(1)));
        assertNotEquals(ClockOptions.virtual(), ClockOptions.virtual().dedupeWindow(Duration.ofMinutes(1)));
    }

    @Test
    void addDeciding_sendsOnConflict_andReadsTheResult_timerOrReservation() {
        service.answer(200, "{\"id\":\"x\",\"fireTime\":20,\"priority\":0,\"sequence\":1,\"version\":2,"
                + "\"createdAt\":0,\"result\":\"replaced\"}");
        service.answer(200, "{\"id\":\"x\",\"result\":\"kept\",\"previous\":{\"state\":\"fired\","
                + "\"time\":20,\"sequence\":1}}");
        ClockClient clock = client.clock("c");

        AddResult replaced = clock.addDeciding("x", Duration.ofMillis(20), 0, null,
                AddOptions.onConflict(OnConflict.REPLACE).withIdempotencyKey("k-1"));
        AddResult kept = clock.addDeciding("x", Duration.ofMillis(20), 0, null, AddOptions.none());

        assertEquals("replaced", replaced.result());
        assertEquals(2, replaced.timer().version());
        assertTrue(kept.kept());
        assertNull(kept.timer());
        assertEquals("fired", kept.previousState());
        assertEquals(Instant.ofEpochMilli(20), kept.previousTime());
        assertTrue(requests.get(0).startsWith("POST /clocks/c/timers "), requests.get(0));
        assertTrue(requests.get(0).contains("\"onConflict\":\"replace\""), requests.get(0));
        assertTrue(requests.get(1).contains("\"onConflict\":\"keep\""), requests.get(1));
    }

    @Test
    void aBatchAdd_sendsOnConflictPerOperation_andEachResultSaysWhatItDecided() {
        service.answer(200, "{\"results\":["
                + "{\"id\":\"x\",\"fireTime\":50,\"priority\":0,\"sequence\":1,\"version\":2,\"createdAt\":0,"
                + "\"etag\":\"\\\"1-2\\\"\",\"result\":\"replaced\"},"
                + "{\"id\":\"y\",\"result\":\"kept\",\"previous\":{\"state\":\"cancelled\",\"time\":7,"
                + "\"sequence\":4}},"
                + "{\"id\":\"z\",\"fireTime\":9,\"priority\":0,\"sequence\":5,\"version\":1,\"createdAt\":0,"
                + "\"etag\":\"\\\"5-1\\\"\"}]}");

        List<BatchResult> results = client.clock("c").batch()
                .add("x", Duration.ofMillis(50), 0, null, AddOptions.onConflict(OnConflict.REPLACE))
                .addAt("y", Instant.ofEpochMilli(60), 0, null, AddOptions.onConflict(OnConflict.KEEP).withKey("k"))
                .add("z", Duration.ofMillis(9))
                .commit();

        String ops = requests.get(0);
        assertTrue(ops.startsWith("POST /clocks/c/batch "), ops);
        assertTrue(ops.contains("{\"id\":\"x\",\"delay\":50,\"onConflict\":\"replace\",\"op\":\"add\"}"), ops);
        assertTrue(ops.contains("{\"id\":\"y\",\"at\":60,\"onConflict\":\"keep\",\"key\":\"k\",\"op\":\"add\"}"),
                ops);
        assertTrue(ops.contains("{\"id\":\"z\",\"delay\":9,\"op\":\"add\"}"), ops);
        assertEquals("replaced", results.get(0).decided().result());
        assertEquals(2, results.get(0).timer().version());
        assertEquals("\"1-2\"", results.get(0).etag());
        assertTrue(results.get(1).decided().kept());
        assertNull(results.get(1).timer());
        assertNull(results.get(1).etag());
        assertEquals("cancelled", results.get(1).decided().previousState());
        assertEquals(4L, results.get(1).decided().previousSequence());
        assertNull(results.get(2).decided(), "an add without onConflict decides nothing");
        assertEquals(5, results.get(2).timer().sequence());
    }

    @Test
    void aBatchAdd_refusesAnIdempotencyKey_whichBelongsToTheWholeRequest() {
        TimerBatch batch = client.clock("c").batch();
        assertThrows(IllegalArgumentException.class, () -> batch.add("x", Duration.ofMillis(5), 0, null,
                AddOptions.onConflict(OnConflict.KEEP).withIdempotencyKey("k-1")));
        assertEquals(0, batch.size());
        assertTrue(requests.isEmpty());
    }
}
