package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.timeservice.ServiceApi;
import io.timeservice.ServiceProcess;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Seed 003's claim test, made real: two instances of the packaged jar on one PostgreSQL schema, eight HTTP claimers
 * (four per instance) claiming up to 100 deliveries at a time and acknowledging them in batches, while the timers of
 * one virtual queue clock come due through advances sent to both instances in turn. Every timer must be
 * acknowledged exactly once, no delivery may be held by two claims at once, and nothing may be left ready or in
 * flight. No lease ends during the test (a minute, far beyond a claim's round trip), so every ack must succeed.
 *
 * <p>Both instances must serve claims, whatever their speed: the first advance's timers are claimed by the second
 * instance's claimers alone, the second advance's by the first instance's alone (each phase ends when all that fired
 * is acknowledged and its claimers have stopped), and only then do all eight claim the rest together.
 */
class MultiInstanceClaimIT {

    private static final long SEED = 20261130L;
    private static final int TIMERS = 20_000;
    private static final int CLAIMERS_PER_INSTANCE = 4;
    private static final int MAX_PER_CLAIM = 100;
    private static final long LEASE = 60_000;
    private static final String CLOCK = "claims";
    /** Fire times are spread over 1..SPAN of the virtual clock, which advances STEP at a time. */
    private static final int SPAN = 1_000;
    private static final int STEP = 10;
    private static final int BATCH = 500; // within the 64 KiB body limit

    /** One claim of one delivery, as a claimer saw it: from sending the claim to the answer of its ack. */
    private record Holding(String id, long sequence, String claim, int attempt, int instance, long claimSent,
                           long ackAnswered, String outcome) {
    }

    @Test
    void eightClaimersOnTwoInstances_acknowledgeEveryTimerOnce_andNeverHoldADeliveryTwice() throws Exception {
        Random random = new Random(SEED);
        try (TestDatabase database = TestDatabase.create(MultiInstanceClaimIT.class, 1);
             ServiceProcess first = PostgresService.start(database.jdbcUrl());
             ServiceProcess second = PostgresService.start(database.jdbcUrl())) {
            List<String> instances = List.of(first.baseUrl(), second.baseUrl());
            new ServiceApi(instances.get(0)).createClock(CLOCK, "virtual", "queue");
            Map<String, String> payloads = addTimers(instances, random);

            Queue<Holding> holdings = new ConcurrentLinkedQueue<>();
            Queue<String> outOfOrderClaims = new ConcurrentLinkedQueue<>();
            AtomicInteger acked = new AtomicInteger();
            int fired = 0;
            long now = 0;
            for (int alone : new int[] {1, 0}) {
                Workers claimers = startClaimers(instances, List.of(alone), payloads, holdings, outOfOrderClaims,
                        acked);
                int firedNow = advance(instances, now, now + STEP);
                assertThat(firedNow).as("timers fired for instance " + alone + "'s claimers alone").isPositive();
                fired += firedNow;
                now += STEP;
                int firedSoFar = fired;
                claimers.await("what fired acknowledged by instance " + alone + "'s claimers alone",
                        () -> acked.get() >= firedSoFar, Duration.ofMinutes(1));
                claimers.stop();
            }
            Workers claimers = startClaimers(instances, List.of(0, 1), payloads, holdings, outOfOrderClaims, acked);
            fired += advance(instances, now, SPAN);
            claimers.await("every timer acknowledged", () -> acked.get() >= TIMERS, Duration.ofMinutes(2));
            claimers.stop();

            assertThat(fired).as("timers fired by the advances of both instances").isEqualTo(TIMERS);
            assertThat(outOfOrderClaims).as("claims not in firing order").isEmpty();
            checkNoDeliveryHeldTwice(holdings);
            checkEveryTimerAckedOnce(holdings, payloads.keySet());
            assertThat(holdings.stream().map(Holding::instance).distinct().sorted().toList())
                    .as("instances whose claimers got work").containsExactly(0, 1);
            for (String instance : instances) {
                JsonNode counts = new ServiceApi(instance).deliveryCounts(CLOCK);
                assertThat(counts.toString()).as(instance).contains("\"ready\":0", "\"inFlight\":0",
                        "\"waiting\":0", "\"dead\":0");
                assertThat(new ServiceApi(instance).expect(200, "GET", "/clocks/" + CLOCK, null).get("size")
                        .asInt()).as("pending timers left").isZero();
            }
        }
    }

    /**
     * Starts {@link #CLAIMERS_PER_INSTANCE} claimers on each instance named in {@code claiming}, each claiming and
     * acknowledging in batches, filing what it held.
     */
    private static Workers startClaimers(List<String> instances, List<Integer> claiming, Map<String, String> payloads,
                                         Queue<Holding> holdings, Queue<String> outOfOrderClaims,
                                         AtomicInteger acked) {
        Workers claimers = new Workers();
        for (int instance : claiming) {
            for (int c = 0; c < CLAIMERS_PER_INSTANCE; c++) {
                ServiceApi api = new ServiceApi(instances.get(instance));
                claimers.start("claimer-" + instance + "-" + c, () -> {
                    long sent = System.nanoTime();
                    List<JsonNode> claimed = api.claim(CLOCK, MAX_PER_CLAIM, LEASE, 200);
                    if (!inFiringOrder(claimed)) {
                        outOfOrderClaims.add(claimed.toString());
                    }
                    List<String> outcomes = claimed.isEmpty() ? List.of() : api.ackAll(CLOCK, claimed);
                    long answered = System.nanoTime();
                    for (int i = 0; i < claimed.size(); i++) {
                        JsonNode d = claimed.get(i);
                        assertThat(d.get("payload").toString()).as(d.toString())
                                .isEqualTo(payloads.get(d.get("id").asString()));
                        holdings.add(new Holding(d.get("id").asString(), d.get("sequence").asLong(),
                                d.get("claim").asString(), d.get("attempt").asInt(), instance, sent, answered,
                                outcomes.get(i)));
                        if (outcomes.get(i).equals("acked")) {
                            acked.incrementAndGet();
                        }
                    }
                    return true;
                });
            }
        }
        return claimers;
    }

    /** Adds the timers in batches, to both instances in turn: id → the payload each one's delivery must carry. */
    private static Map<String, String> addTimers(List<String> instances, Random random) throws Exception {
        Map<String, String> payloads = new HashMap<>();
        for (int start = 0; start < TIMERS; start += BATCH) {
            StringBuilder ops = new StringBuilder("{\"ops\":[");
            for (int i = start; i < start + BATCH; i++) {
                String id = String.format("t-%05d", i);
                String payload = "{\"n\":" + i + "}";
                payloads.put(id, payload);
                ops.append(i == start ? "" : ",").append("{\"op\":\"add\",\"id\":\"").append(id)
                        .append("\",\"delay\":").append(1 + random.nextInt(SPAN)).append(",\"priority\":")
                        .append(random.nextInt(4)).append(",\"payload\":").append(payload).append('}');
            }
            new ServiceApi(instances.get(start / BATCH % instances.size()))
                    .expect(200, "POST", "/clocks/" + CLOCK + "/batch", ops.append("]}").toString());
        }
        return payloads;
    }

    /**
     * Advances the clock from {@code from} STEP at a time, asking the instances in turn, until {@code to}; how many
     * timers fired.
     */
    private static int advance(List<String> instances, long from, long to) throws Exception {
        List<ServiceApi> apis = instances.stream().map(ServiceApi::new).toList();
        int fired = 0;
        long now = from;
        for (int call = 0; now < to; call++) {
            JsonNode answer = apis.get(call % apis.size()).expect(200, "POST",
                    "/clocks/" + CLOCK + "/advance?limit=10000", "{\"to\":" + Math.min(to, now + STEP) + "}");
            assertThat(answer.get("complete").asBoolean()).as(answer.toString()).isTrue();
            fired += answer.get("firedCount").asInt();
            now = answer.get("now").asLong();
        }
        return fired;
    }

    private static boolean inFiringOrder(List<JsonNode> claimed) {
        Comparator<JsonNode> firingOrder = Comparator.<JsonNode>comparingLong(d -> d.get("fireTime").asLong())
                .thenComparingInt(d -> d.get("priority").asInt())
                .thenComparingLong(d -> d.get("sequence").asLong());
        for (int i = 1; i < claimed.size(); i++) {
            if (firingOrder.compare(claimed.get(i - 1), claimed.get(i)) > 0) {
                return false;
            }
        }
        return true;
    }

    /** Every ack answered {@code acked} (no lease ended), and each timer was acknowledged exactly once. */
    private static void checkEveryTimerAckedOnce(Queue<Holding> holdings, Set<String> ids) {
        List<Holding> notAcked = holdings.stream().filter(h -> !h.outcome().equals("acked")).toList();
        assertThat(notAcked.stream().limit(10).toList())
                .as("acks that did not answer acked: " + notAcked.size() + ", the first ten").isEmpty();
        Map<String, Integer> acksPerId = new HashMap<>();
        Set<String> claims = new HashSet<>();
        for (Holding holding : holdings) {
            if (holding.outcome().equals("acked")) {
                acksPerId.merge(holding.id(), 1, Integer::sum);
            }
            claims.add(holding.claim());
            assertThat(holding.attempt()).as(holding.toString()).isEqualTo(1);
        }
        assertThat(acksPerId.keySet()).as("timers acknowledged").isEqualTo(ids);
        assertThat(acksPerId.entrySet()).as("timers acknowledged more than once")
                .filteredOn(entry -> entry.getValue() != 1).isEmpty();
        assertThat(claims).as("distinct claim tokens").hasSize(TIMERS);
    }

    /**
     * No two claims of one delivery (id and sequence) overlap: each claimer's holding runs from sending its claim to
     * the answer of its ack, which covers the time the lease was really held (it cannot start before the request or
     * outlive the acknowledgement).
     */
    private static void checkNoDeliveryHeldTwice(Queue<Holding> holdings) {
        Map<String, List<Holding>> byDelivery = new HashMap<>();
        for (Holding holding : holdings) {
            byDelivery.computeIfAbsent(holding.id() + "#" + holding.sequence(), key -> new ArrayList<>())
                    .add(holding);
        }
        List<String> overlaps = new ArrayList<>();
        for (List<Holding> claims : byDelivery.values()) {
            claims.sort(Comparator.comparingLong(Holding::claimSent));
            Holding longest = claims.get(0); // of those started so far, the one held until the latest
            for (Holding next : claims.subList(1, claims.size())) {
                if (next.claimSent() < longest.ackAnswered()) {
                    overlaps.add(longest + " and " + next);
                }
                longest = next.ackAnswered() > longest.ackAnswered() ? next : longest;
            }
        }
        assertThat(overlaps.stream().limit(10).toList())
                .as("deliveries held by two claims at once: " + overlaps.size() + ", the first ten").isEmpty();
    }
}
