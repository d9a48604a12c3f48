package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.timeservice.ServiceApi;
import io.timeservice.ServiceProcess;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * SIGKILL of one of two instances while its claimers hold leases. The timers of a system queue clock come due by
 * themselves (the instances' firing loops); four claimers per instance claim and acknowledge them, in phases that
 * start on what happened, never on which side is faster: the victim's claimers alone until they have acknowledged
 * {@value #VICTIM_ACKS_BEFORE_HOLD} (a cold instance on a loaded machine answered its first claim after the survivor
 * had drained every timer), then both until every timer is acknowledged. Then the survivor's claimers stand aside,
 * the victim's claimers say they are ready to hold, a few more timers come due at once, each of the victim's claimers
 * claims once more with a short lease and keeps what it got without acknowledging, and the victim JVM is killed. Those deliveries must come back, with attempt 2, to the survivor's claimers once their lease has
 * ended and the retry backoff has passed (the survivor's retry step, no sleeping in the test: it waits with a
 * deadline for the acknowledgements); nothing acknowledged before the kill may be delivered again; every timer is
 * acknowledged exactly once, and nothing is left ready, in flight, waiting or dead.
 */
class InstanceKillIT {

    private static final long SEED = 20261201L;
    private static final int TIMERS = 3_000;
    private static final String CLOCK = "work";
    /** The timers come due over this many milliseconds after they are added. */
    private static final int SPREAD = 3_000;
    private static final int CLAIMERS_PER_INSTANCE = 4;
    /** The victim's acknowledged deliveries before its claimers hold theirs. */
    private static final int VICTIM_ACKS_BEFORE_HOLD = 200;
    /** Far beyond the test, so that only the held deliveries' leases end. */
    private static final long LEASE = 60_000;
    private static final long HELD_LEASE = 2_000;
    private static final int BATCH = 500;
    /**
     * Added, due at once, while the survivor's claimers stand aside: whatever the machine's speed, the victim's
     * claimers then find something to hold.
     */
    private static final int FOR_THE_VICTIM = 100;

    /** One claim of one delivery; times are the wall clock's milliseconds, as the database's leases are. */
    private record Claimed(String id, long sequence, int attempt, boolean byVictim, long claimSent, long answered) {
    }

    private final Queue<Claimed> claims = new ConcurrentLinkedQueue<>();
    private final Queue<Claimed> held = new ConcurrentLinkedQueue<>();
    /** id → how many of its acknowledgements were answered as done (204 or {@code acked}). */
    private final Map<String, Integer> acks = new ConcurrentHashMap<>();
    private final Set<String> ackedBeforeKill = ConcurrentHashMap.newKeySet();
    private final Queue<String> refusedAcks = new ConcurrentLinkedQueue<>();
    private final AtomicInteger victimAcks = new AtomicInteger();
    private final AtomicInteger holdingClaimers = new AtomicInteger();
    /** The victim's claimers that have begun a step in which they hold what they claim. */
    private final Set<String> readyToHold = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean hold = new AtomicBoolean();
    private final CountDownLatch survivorsAside = new CountDownLatch(CLAIMERS_PER_INSTANCE);
    private final CountDownLatch killed = new CountDownLatch(1);
    private volatile long killedAt = Long.MAX_VALUE;

    @Test
    void sigkillOfAnInstanceHoldingLeases_bringsItsDeliveriesBackToTheOther_andRepeatsNoAcknowledgedOne()
            throws Exception {
        try (TestDatabase database = TestDatabase.create(InstanceKillIT.class, 1);
             ServiceProcess survivor = PostgresService.start(database.jdbcUrl());
             ServiceProcess victim = PostgresService.start(database.jdbcUrl())) {
            ServiceApi api = new ServiceApi(survivor.baseUrl());
            api.createClock(CLOCK, "system", "queue");
            Random random = new Random(SEED);
            Set<String> ids = new HashSet<>(addTimers(api, random, 0, TIMERS, SPREAD));

            Workers claimers = new Workers();
            for (int c = 0; c < CLAIMERS_PER_INSTANCE; c++) {
                ServiceApi onVictim = new ServiceApi(victim.baseUrl());
                claimers.start("victim-claimer-" + c, () -> victimStep(onVictim));
            }
            claimers.await(VICTIM_ACKS_BEFORE_HOLD + " acknowledgements by the victim's claimers",
                    () -> victimAcks.get() >= VICTIM_ACKS_BEFORE_HOLD, Duration.ofSeconds(60));
            for (int c = 0; c < CLAIMERS_PER_INSTANCE; c++) {
                ServiceApi onSurvivor = new ServiceApi(survivor.baseUrl());
                claimers.start("survivor-claimer-" + c, () -> survivorStep(onSurvivor));
            }
            claimers.await("every timer acknowledged by the claimers of both instances",
                    () -> acks.size() == TIMERS, Duration.ofSeconds(60));
            hold.set(true);
            assertThat(survivorsAside.await(1, TimeUnit.MINUTES)).as("the survivor's claimers stand aside").isTrue();
            // each of them claims in a holding step, so none of the timers below is acknowledged by a step that began
            // before the hold, and there are more of them than the victim's claims take (4 x 20 < 100)
            claimers.await("every claimer of the victim ready to hold",
                    () -> readyToHold.size() == CLAIMERS_PER_INSTANCE, Duration.ofSeconds(60));
            ids.addAll(addTimers(api, random, TIMERS, FOR_THE_VICTIM, 1));
            claimers.await("every claimer of the victim holding deliveries",
                    () -> holdingClaimers.get() == CLAIMERS_PER_INSTANCE, Duration.ofSeconds(60));
            killedAt = System.currentTimeMillis();
            assertThat(victim.kill()).as("exit status of the victim JVM: SIGKILL").isEqualTo(128 + 9);
            killed.countDown();
            claimers.await("every timer acknowledged", () -> acks.size() == ids.size(), Duration.ofSeconds(60));
            claimers.stop();

            assertThat(refusedAcks).as("acknowledgements not answered as done").isEmpty();
            assertThat(held).as("deliveries held by the victim's claimers at the kill").isNotEmpty()
                    .allMatch(h -> h.attempt() == 1);
            assertThat(acks.keySet()).isEqualTo(ids);
            assertThat(acks.entrySet()).as("timers acknowledged more than once")
                    .filteredOn(entry -> entry.getValue() != 1).isEmpty();
            List<String> repeated = claims.stream().filter(c -> c.claimSent() > killedAt)
                    .map(Claimed::id).filter(ackedBeforeKill::contains).toList();
            assertThat(repeated).as("acknowledged before the kill, delivered again").isEmpty();
            checkOnlyHeldDeliveriesCameAgain();
            assertThat(api.deliveryCounts(CLOCK).toString()).contains("\"ready\":0", "\"inFlight\":0",
                    "\"waiting\":0", "\"dead\":0");
        }
    }

    /** Adds {@code count} timers, numbered from {@code first}, due over the next {@code spread} ms; their ids. */
    private static Set<String> addTimers(ServiceApi api, Random random, int first, int count, int spread)
            throws Exception {
        Set<String> ids = new HashSet<>();
        for (int start = first; start < first + count; start += BATCH) {
            StringBuilder ops = new StringBuilder("{\"ops\":[");
            for (int i = start; i < Math.min(start + BATCH, first + count); i++) {
                String id = String.format("job-%05d", i);
                ids.add(id);
                ops.append(i == start ? "" : ",").append("{\"op\":\"add\",\"id\":\"").append(id)
                        .append("\",\"delay\":").append(random.nextInt(spread)).append('}');
            }
            api.expect(200, "POST", "/clocks/" + CLOCK + "/batch", ops.append("]}").toString());
        }
        return ids;
    }

    /** Claims and acknowledges in batches; stands aside while the victim's claimers take what they will hold. */
    private boolean survivorStep(ServiceApi api) throws Exception {
        if (hold.get()) {
            survivorsAside.countDown();
            killed.await(1, TimeUnit.MINUTES); // bounded: a failure before the kill must not hang the test
        }
        long sent = System.currentTimeMillis();
        List<JsonNode> claimed = api.claim(CLOCK, 100, LEASE, 500);
        if (claimed.isEmpty()) {
            return true;
        }
        List<String> outcomes = api.ackAll(CLOCK, claimed);
        long answered = System.currentTimeMillis();
        for (int i = 0; i < claimed.size(); i++) {
            claims.add(claimed(claimed.get(i), false, sent, answered));
            acknowledged(claimed.get(i), outcomes.get(i).equals("acked"), answered);
        }
        return true;
    }

    /** Claims and acknowledges one by one; once told to hold, claims with a short lease and keeps what it got. */
    private boolean victimStep(ServiceApi api) throws Exception {
        boolean holding = hold.get();
        if (holding) {
            readyToHold.add(Thread.currentThread().getName());
        }
        long sent = System.currentTimeMillis();
        List<JsonNode> claimed = api.claim(CLOCK, 20, holding ? HELD_LEASE : LEASE, 500);
        long answered = System.currentTimeMillis();
        for (JsonNode d : claimed) {
            Claimed claim = claimed(d, true, sent, answered);
            claims.add(claim);
            if (holding) {
                held.add(claim);
                continue;
            }
            int status = api.send("POST", "/clocks/" + CLOCK + "/deliveries/" + d.get("id").asString() + "/ack",
                    "{\"claim\":\"" + d.get("claim").asString() + "\"}").statusCode();
            acknowledged(d, status == 204, System.currentTimeMillis());
            victimAcks.incrementAndGet();
        }
        if (holding && !claimed.isEmpty()) {
            holdingClaimers.incrementAndGet();
            return false; // keeps its claims until the JVM is killed
        }
        return true;
    }

    private static Claimed claimed(JsonNode delivery, boolean byVictim, long sent, long answered) {
        return new Claimed(delivery.get("id").asString(), delivery.get("sequence").asLong(),
                delivery.get("attempt").asInt(), byVictim, sent, answered);
    }

    private void acknowledged(JsonNode delivery, boolean done, long answered) {
        String id = delivery.get("id").asString();
        if (!done) {
            refusedAcks.add(delivery.toString());
            return;
        }
        acks.merge(id, 1, Integer::sum);
        if (answered < killedAt) {
            ackedBeforeKill.add(id);
        }
    }

    /**
     * A held delivery was claimed twice: by the victim (attempt 1, held) and by a survivor's claimer (attempt 2, not
     * before the held lease had ended); every other delivery exactly once, with attempt 1.
     */
    private void checkOnlyHeldDeliveriesCameAgain() {
        Map<String, Claimed> heldById = new HashMap<>();
        held.forEach(h -> heldById.put(h.id(), h));
        Map<String, List<Claimed>> byId = new HashMap<>();
        claims.forEach(c -> byId.computeIfAbsent(c.id(), id -> new ArrayList<>()).add(c));
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, List<Claimed>> entry : byId.entrySet()) {
            Claimed heldClaim = heldById.get(entry.getKey());
            List<Claimed> got = entry.getValue();
            boolean right = heldClaim == null
                    ? got.size() == 1 && got.get(0).attempt() == 1
                    : got.size() == 2 && got.contains(heldClaim) && got.stream().anyMatch(again -> !again.byVictim()
                            && again.attempt() == 2 && again.sequence() == heldClaim.sequence()
                            && again.answered() >= heldClaim.claimSent() + HELD_LEASE);
            if (!right) {
                wrong.add(entry.getKey() + " " + got);
            }
        }
        assertThat(wrong).as("deliveries claimed other than once (or, when held at the kill, once again after"
                + " the lease)").isEmpty();
    }
}
