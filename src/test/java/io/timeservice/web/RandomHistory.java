package io.timeservice.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.timeservice.model.Limits;

/**
 * A seeded random history of public REST calls on a few virtual clocks of its own (names {@code h<seed>-<n>}): timers
 * with any ids (plain ones, and ids of the form {@code <schedule>:<digits>} aimed at schedules' coming occurrences),
 * single and batch adds, edits and cancels, cron and interval schedules with pause, resume, trigger, replace and
 * delete, advances by, to and to the next event with and without a limit, forks, snapshot saves loaded into new
 * clocks, and claims, acks and nacks on the queue clocks. Refusals (4xx) are part of a history; a 5xx is not, and
 * fails it with the seed and the calls so far. The same seed makes the same calls against the same state, so a
 * failure replays.
 *
 * <p>Used by the property tests: {@link RestartReplayPropertyTest} (a memory store stopped and started on its
 * journal shows every clock as before) and {@link SnapshotRoundTripPropertyTest} (save, load, save is the identity,
 * on both stores). {@code farTimes} adds times near 10^15 and {@code Long.MAX_VALUE} (delays, {@code at}, schedule
 * starts, advance targets).
 */
final class RandomHistory {

    /** On since the one end of time (issue 49 item 1); {@code -Dtimeservice.history.farTimes=false} leaves them out. */
    static final boolean FAR_TIMES = !"false".equals(System.getProperty("timeservice.history.farTimes"));

    private static final String[] CRONS = {"* * * * *", "*/2 * * * *", "30 * * * *", "*/10 * * * * *",
        "0 0 * * *", "15,45 * * * * *"};
    private static final String[] SCHEDULES = {"s", "u", "tick"};

    private final long seed;
    private final Random random;
    private final Supplier<RequestSpecification> api;
    private final boolean farTimes;
    private final List<String> clocks = new ArrayList<>();
    private final List<String> calls = new ArrayList<>();
    /** Claims held on the queue clocks: clock, delivery id, claim. */
    private final List<String[]> claims = new ArrayList<>();
    private int created;

    RandomHistory(long seed, Supplier<RequestSpecification> api, boolean farTimes) {
        this.seed = seed;
        this.random = new Random(seed);
        this.api = api;
        this.farTimes = farTimes;
    }

    /** The clocks the history made (forks and loads among them), each still there unless a step deleted it. */
    List<String> clocks() {
        return clocks;
    }

    /** The calls made so far, one line each, for a failure message. */
    String log() {
        return "seed " + seed + ":\n  " + String.join("\n  ", calls);
    }

    /** Makes two clocks (one answering advances, one queueing deliveries), then {@code steps} random calls. */
    RandomHistory run(int steps) {
        long start = farTimes && random.nextInt(4) == 0 ? Limits.MAX_TIME - 3_600_000L * random.nextInt(3)
                : random.nextBoolean() ? 0 : 1806184800000L;
        newClock("{\"now\":" + start + "}");
        newClock("{\"now\":" + start + ",\"delivery\":\"queue\"}");
        for (int i = 0; i < steps; i++) {
            step();
        }
        return this;
    }

    private void step() {
        String clock = clocks.get(random.nextInt(clocks.size()));
        String base = "/clocks/" + clock;
        int kind = random.nextInt(100);
        if (kind < 22) {
            call("POST", base + "/timers", timerBody(clock));
        } else if (kind < 27) {
            StringBuilder ops = new StringBuilder("{\"ops\":[");
            int n = 1 + random.nextInt(4);
            for (int i = 0; i < n; i++) {
                ops.append(i == 0 ? "" : ",").append(batchOp(clock));
            }
            call("POST", base + "/batch", ops.append("]}").toString());
        } else if (kind < 31) {
            call("PATCH", base + "/timers/" + someTimerId(clock), "{\"delay\":" + delay() + "}");
        } else if (kind < 35) {
            call("DELETE", base + "/timers/" + someTimerId(clock), null);
        } else if (kind < 45) {
            call("PUT", base + "/schedules/" + pick(SCHEDULES), scheduleBody(clock));
        } else if (kind < 52) {
            String[] actions = {"pause", "resume", "trigger"};
            call("POST", base + "/schedules/" + pick(SCHEDULES) + "/" + pick(actions), null);
        } else if (kind < 54) {
            call("DELETE", base + "/schedules/" + pick(SCHEDULES), null);
        } else if (kind < 78) {
            advance(base);
        } else if (kind < 81 && clocks.size() < 5) {
            newClock("{\"copyOf\":\"" + clock + "\"}");
        } else if (kind < 84 && clocks.size() < 5) {
            Response saved = call("GET", base + "/snapshot", null);
            if (saved.statusCode() == 200) {
                String name = nextName();
                if (call("PUT", "/clocks/" + name + "/snapshot", saved.asString()).statusCode() == 201) {
                    clocks.add(name);
                }
            }
        } else {
            deliveries(base, clock);
        }
    }

    private void advance(String base) {
        String limit = random.nextInt(4) == 0 ? "?limit=" + (1 + random.nextInt(5)) : "";
        int form = random.nextInt(4);
        String body;
        if (form == 0) {
            body = "{\"next\":true}";
        } else if (form == 1) {
            body = "{\"to\":" + (nowOf(base) + smallTime()) + "}";
        } else if (farTimes && random.nextInt(20) == 0) {
            body = switch (random.nextInt(4)) {
                case 0 -> "{\"by\":1000000000000000}";
                case 1 -> "{\"to\":" + Limits.MAX_TIME + "}";
                case 2 -> "{\"by\":" + (Limits.MAX_TIME - nowOf(base)) + "}";
                default -> "{\"to\":" + Long.MAX_VALUE + "}";
            };
        } else {
            body = "{\"by\":" + smallTime() + "}";
        }
        call("POST", base + "/advance" + limit, body);
    }

    private void deliveries(String base, String clock) {
        int kind = random.nextInt(3);
        if (kind == 0 || claims.isEmpty()) {
            Response claimed = call("POST", base + "/deliveries/claim",
                    "{\"max\":" + (1 + random.nextInt(3)) + ",\"lease\":" + (1000 + random.nextInt(60_000)) + "}");
            if (claimed.statusCode() == 200) {
                List<Map<String, Object>> got = claimed.jsonPath().getList("deliveries");
                for (Map<String, Object> delivery : got) {
                    claims.add(new String[] {clock, String.valueOf(delivery.get("id")),
                            String.valueOf(delivery.get("claim"))});
                }
            }
            return;
        }
        String[] held = claims.remove(random.nextInt(claims.size()));
        String path = "/clocks/" + held[0] + "/deliveries/" + held[1] + (kind == 1 ? "/ack" : "/nack");
        String retry = kind == 2 && random.nextBoolean() ? ",\"retryAfter\":" + random.nextInt(5000) : "";
        call("POST", path, "{\"claim\":\"" + held[2] + "\"" + retry + "}");
    }

    private String timerBody(String clock) {
        String id = timerId(clock);
        StringBuilder body = new StringBuilder("{\"id\":\"" + id + "\"");
        long aimed = occurrenceTime(id);
        if (aimed >= 0 && random.nextBoolean()) { // due with the occurrence it names: pending as its predecessor fires
            body.append(",\"at\":").append(aimed);
        } else if (farTimes && random.nextInt(15) == 0) {
            body.append(switch (random.nextInt(4)) {
                case 0 -> ",\"delay\":1000000000000000";
                case 1 -> ",\"at\":" + Limits.MAX_TIME;
                case 2 -> ",\"delay\":" + (Limits.MAX_TIME - nowOf("/clocks/" + clock));
                default -> ",\"at\":" + Long.MAX_VALUE;
            });
        } else if (random.nextInt(4) == 0) {
            body.append(",\"at\":").append(nowOf("/clocks/" + clock) + random.nextInt(20_000));
        } else {
            body.append(",\"delay\":").append(delay());
        }
        if (random.nextBoolean()) {
            body.append(",\"priority\":").append(random.nextInt(5) - 2);
        }
        if (random.nextInt(3) == 0) {
            body.append(",\"payload\":{\"n\":").append(random.nextInt(100)).append("}");
        }
        return body.append("}").toString();
    }

    private String batchOp(String clock) {
        int kind = random.nextInt(3);
        if (kind == 0) {
            return "{\"op\":\"add\",\"id\":\"" + timerId(clock) + "\",\"delay\":" + delay() + "}";
        } else if (kind == 1) {
            return "{\"op\":\"edit\",\"id\":\"" + someTimerId(clock) + "\",\"delay\":" + delay() + "}";
        }
        return "{\"op\":\"cancel\",\"id\":\"" + someTimerId(clock) + "\"}";
    }

    /** The time an id of a schedule's form {@code <schedule>:<digits>} names, or -1 for any other id. */
    private static long occurrenceTime(String id) {
        int colon = id.indexOf(':');
        if (colon < 0 || !List.of(SCHEDULES).contains(id.substring(0, colon))) {
            return -1;
        }
        try {
            return Long.parseLong(id.substring(colon + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** A plain id, or one of a schedule's form: often a coming occurrence's time, to aim at collisions. */
    private String timerId(String clock) {
        int kind = random.nextInt(10);
        if (kind < 5) {
            return "t" + random.nextInt(12);
        }
        String schedule = pick(SCHEDULES);
        if (kind < 8) { // one of the schedule's coming occurrences, as GET .../next lists them
            Response next = call("GET", "/clocks/" + clock + "/schedules/" + schedule + "/next?count=5", null);
            List<Long> times = next.statusCode() == 200 ? next.jsonPath().getList("times", Long.class) : null;
            if (times != null && times.size() > 1) { // a later one than the pending: that one is a duplicate
                return schedule + ":" + times.get(1 + random.nextInt(times.size() - 1));
            }
        }
        long now = nowOf("/clocks/" + clock);
        long time = kind < 8 ? (now / 1000 + 1 + random.nextInt(30)) * 1000 : now / 60_000 * 60_000 + 60_000L
                * (1 + random.nextInt(10));
        return schedule + ":" + time;
    }

    private String someTimerId(String clock) {
        if (random.nextBoolean()) {
            Response listed = call("GET", "/clocks/" + clock + "/timers", null);
            if (listed.statusCode() == 200) {
                List<String> ids = listed.jsonPath().getList("timers.id", String.class);
                if (ids != null && !ids.isEmpty()) {
                    return ids.get(random.nextInt(ids.size()));
                }
            }
        }
        return timerId(clock);
    }

    private String scheduleBody(String clock) {
        StringBuilder body = new StringBuilder("{");
        long now = nowOf("/clocks/" + clock);
        if (random.nextBoolean()) {
            body.append("\"every\":").append(1000L * (1 + random.nextInt(5)));
            if (random.nextBoolean()) {
                long start = farTimes && random.nextInt(10) == 0 ? 2_000_000_000_000_000L
                        : now + 1000L * random.nextInt(10);
                body.append(",\"start\":").append(start);
            }
        } else {
            body.append("\"cron\":\"").append(pick(CRONS)).append("\"");
            if (random.nextInt(4) == 0) {
                body.append(",\"zone\":\"Europe/Berlin\"");
            }
        }
        if (random.nextInt(4) == 0) {
            body.append(",\"limit\":").append(1 + random.nextInt(6));
        }
        if (random.nextInt(5) == 0) {
            body.append(",\"end\":").append(now + 1000L * (5 + random.nextInt(60)));
        }
        if (random.nextInt(4) == 0) {
            String[] catchUps = {"all", "latest", "none"};
            body.append(",\"catchUp\":\"").append(pick(catchUps)).append("\"");
        }
        if (random.nextInt(6) == 0) {
            body.append(",\"paused\":true");
        }
        if (random.nextInt(3) == 0) {
            body.append(",\"payload\":{\"job\":").append(random.nextInt(9)).append("}");
        }
        return body.append("}").toString();
    }

    private long delay() {
        return random.nextInt(8) == 0 ? 0 : random.nextInt(30_000);
    }

    private long smallTime() {
        int scale = random.nextInt(4);
        return scale == 0 ? random.nextInt(1000) : scale == 1 ? random.nextInt(10_000) : scale == 2
                ? random.nextInt(120_000) : random.nextInt(4_000_000);
    }

    private long nowOf(String base) {
        Response clock = call("GET", base, null);
        return clock.statusCode() == 200 ? clock.jsonPath().getLong("now") : 0;
    }

    private void newClock(String body) {
        String name = nextName();
        if (call("PUT", "/clocks/" + name, body).statusCode() == 201) {
            clocks.add(name);
        }
    }

    private String nextName() {
        return "h" + Long.toUnsignedString(seed, 36) + "-" + created++;
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    /** One call; a 5xx fails the history with its log. */
    private Response call(String method, String path, String body) {
        RequestSpecification request = api.get();
        if (body != null) {
            request = request.contentType(ContentType.JSON).body(body);
        }
        Response response = request.request(method, path);
        calls.add(method + " " + path + (body == null ? "" : " " + body) + " -> " + response.statusCode());
        if (response.statusCode() >= 500) {
            throw new AssertionError("a call answered " + response.statusCode() + ": " + response.asString() + "\n"
                    + log());
        }
        return response;
    }
}
