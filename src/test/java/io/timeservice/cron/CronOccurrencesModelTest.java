package io.timeservice.cron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.LongStream;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Recurrence;
import io.timeservice.model.ZonedRecurrence;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The service's cron occurrences against an independent enumeration: every local minute of a span is matched
 * against the field sets the expression was generated from (Unix rules: day-of-week 7 is 0, either day field
 * matching when both are restricted) and mapped to an instant by the DST rules written out with ZoneRules (a gap
 * time moves forward by the gap, an overlap time takes its first instant), duplicates merged. Seeded; the seed and
 * expression are in every failure's description.
 */
class CronOccurrencesModelTest {

    private static final String[] ZONES = {"Europe/Berlin", "America/New_York", "UTC", "Australia/Lord_Howe",
        "Asia/Kolkata", "America/Santiago", "Pacific/Apia", "Europe/London"};
    private static final String[] FIXED = {"0 0 31 * *", "0 0 29 2 *", "*/30 * * * *", "30 2 * * *", "0 2 * * *",
        "59 1 * * *", "0 0 13 * FRI", "15 2,3 * * SUN", "*/7 1-3 * 3,10,11 *", "0 0 1 1 *"};
    private final UnixCronParser parser = new UnixCronParser();

    static LongStream seeds() {
        return LongStream.range(1, 41);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void occurrences_matchIndependentMinuteByMinuteEnumeration(long seed) {
        Random random = new Random(seed);
        Generated cron = seed <= FIXED.length ? fixed(FIXED[(int) seed - 1]) : generate(random);
        ZoneId zone = ZoneId.of(ZONES[random.nextInt(ZONES.length)]);
        LocalDateTime spanStart = LocalDateTime.of(2019 + random.nextInt(10), 1 + random.nextInt(12), 1, 0, 0)
                .plusDays(random.nextInt(28)).plusMinutes(random.nextInt(1440));
        LocalDateTime spanEnd = spanStart.plusDays(380);
        ZoneRules rules = zone.getRules();
        long after = spanStart.toInstant(rules.getOffset(spanStart)).toEpochMilli();
        long through = spanEnd.toInstant(rules.getOffset(spanEnd)).toEpochMilli();
        String description = "seed " + seed + ", cron \"" + cron.text + "\" in " + zone + " from " + spanStart;

        TreeSet<Long> expected = new TreeSet<>();
        // a day on each side: a moved gap time or a repeated hour may bring a local time into the span's instants
        for (LocalDateTime local = spanStart.minusDays(1); !local.isAfter(spanEnd.plusDays(1));
             local = local.plusMinutes(1)) {
            if (cron.matches(local)) {
                long instant = bruteForceInstant(rules, local);
                if (instant > after && instant <= through) {
                    expected.add(instant);
                }
            }
        }
        Recurrence times = new ZonedRecurrence(parser.parse(cron.text), zone);
        List<Long> actual = new ArrayList<>();
        for (long t = times.nextAfter(after); t != Recurrence.NONE && t <= through; t = times.nextAfter(t)) {
            actual.add(t);
        }
        assertThat(actual).as(description).containsExactlyElementsOf(expected);
    }

    /** The DST rules, written out: a gap time at the offset before the gap, an overlap time at the larger offset. */
    private static long bruteForceInstant(ZoneRules rules, LocalDateTime local) {
        List<ZoneOffset> offsets = rules.getValidOffsets(local);
        ZoneOffset offset = offsets.isEmpty() ? rules.getTransition(local).getOffsetBefore() : offsets.get(0);
        for (ZoneOffset valid : offsets) {
            if (valid.getTotalSeconds() > offset.getTotalSeconds()) {
                offset = valid;
            }
        }
        return local.toEpochSecond(offset) * 1000;
    }

    @org.junit.jupiter.api.Test
    void berlinSpringForward_movesTheMissingLocalTimeForwardByTheGap() {
        // 2027-03-28: 02:00 CET becomes 03:00 CEST; 02:30 does not exist and fires at 03:30 CEST (01:30Z)
        assertThat(times("30 2 * * *", "Europe/Berlin", "2027-03-27T12:00:00Z", 2))
                .containsExactly("2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z");
    }

    @org.junit.jupiter.api.Test
    void halfHourlyAcrossTheGap_firesEachInstantOnce() {
        // moved 02:00 -> 03:00 CEST and 02:30 -> 03:30 CEST coincide with the real 03:00 and 03:30: once each
        assertThat(times("*/30 * * * *", "Europe/Berlin", "2027-03-27T23:59:00Z", 5))
                .containsExactly("2027-03-28T00:00:00Z", "2027-03-28T00:30:00Z", "2027-03-28T01:00:00Z",
                        "2027-03-28T01:30:00Z", "2027-03-28T02:00:00Z");
    }

    @org.junit.jupiter.api.Test
    void newYorkFallBack_firesTheRepeatedLocalTimeAtItsFirstInstant() {
        // 2027-11-07: 01:30 EDT (05:30Z) and 01:30 EST (06:30Z) are both 01:30; it fires at 05:30Z only
        assertThat(times("30 1 * * *", "America/New_York", "2027-11-06T12:00:00Z", 2))
                .containsExactly("2027-11-07T05:30:00Z", "2027-11-08T06:30:00Z");
    }

    @org.junit.jupiter.api.Test
    void halfHourlyInTheRepeatedHour_firesZeroAndThirtyOnceEach() {
        // Berlin 2027-10-31: 02:00 and 02:30 CEST (00:00Z, 00:30Z), then not again in CET; next 03:00 CET (02:00Z)
        assertThat(times("*/30 * * * *", "Europe/Berlin", "2027-10-30T23:45:00Z", 3))
                .containsExactly("2027-10-31T00:00:00Z", "2027-10-31T00:30:00Z", "2027-10-31T02:00:00Z");
    }

    @org.junit.jupiter.api.Test
    void sixFields_secondsFirst_andMacros() {
        assertThat(times("*/20 0 0 1 1 *", "UTC", "2027-01-01T00:00:00Z", 2))
                .containsExactly("2027-01-01T00:00:20Z", "2027-01-01T00:00:40Z");
        assertThat(times("@weekly", "UTC", "2027-01-01T00:00:00Z", 1)).containsExactly("2027-01-03T00:00:00Z");
        assertThat(times("0 0 * * 7", "UTC", "2027-01-01T00:00:00Z", 1)).containsExactly("2027-01-03T00:00:00Z");
        assertThat(times("0 0 * * */2", "UTC", "2027-01-01T00:00:00Z", 2))
                .as("a step over * counts from Sunday (0)").containsExactly("2027-01-02T00:00:00Z",
                        "2027-01-03T00:00:00Z");
    }

    private List<String> times(String cron, String zone, String after, int count) {
        Recurrence recurrence = new ZonedRecurrence(parser.parse(cron), ZoneId.of(zone));
        List<String> times = new ArrayList<>();
        long t = java.time.Instant.parse(after).toEpochMilli();
        for (int i = 0; i < count; i++) {
            t = recurrence.nextAfter(t);
            times.add(java.time.Instant.ofEpochMilli(t).toString());
        }
        return times;
    }

    @ParameterizedTest
    @MethodSource("neverFiring")
    void cronThatNeverFires_isRefused(String cron) {
        assertThat(new ZonedRecurrence(parser.parse(cron), ZoneId.of("UTC")).nextAfter(0)).isEqualTo(Recurrence.NONE);
    }

    static List<String> neverFiring() {
        return List.of("0 0 30 2 *", "0 0 31 4,6,9,11 *", "0 0 31 2 *");
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void malformedCron_isInvalidSchedule(String cron) {
        assertThatThrownBy(() -> parser.parse(cron)).isInstanceOf(ProblemException.class)
                .extracting(e -> ((ProblemException) e).code()).isEqualTo(ErrorCode.INVALID_SCHEDULE);
    }

    static List<String> malformed() {
        return List.of("", "* * * *", "* * * * * * *", "60 * * * *", "* 24 * * *", "* * 0 * *", "* * * 13 *",
                "* * * * 8", "0 0 ? * *", "0 0 L * *", "0 0 * * 1#2", "5-1 * * * *", "*/0 * * * *", "@often",
                "* * * FOO *", "1,,2 * * * *", "a * * * *", "* * * * MON-FOO");
    }

    private record Generated(String text, BitSet[] sets, boolean domRestricted, boolean dowRestricted) {
        boolean matches(LocalDateTime t) {
            boolean dom = sets[2].get(t.getDayOfMonth());
            boolean dow = sets[4].get(t.getDayOfWeek().getValue() % 7);
            boolean day = domRestricted && dowRestricted ? dom || dow : dom && dow;
            return sets[0].get(t.getMinute()) && sets[1].get(t.getHour()) && sets[3].get(t.getMonthValue()) && day;
        }
    }

    private static final int[][] RANGES = {{0, 59}, {0, 23}, {1, 31}, {1, 12}, {0, 7}};
    private static final String[][] NAMES = {null, null, null,
        {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"},
        {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}};

    /** A random expression, field by field, with the set each field names worked out beside its text. */
    private static Generated generate(Random random) {
        String[] texts = new String[5];
        BitSet[] sets = new BitSet[5];
        for (int f = 0; f < 5; f++) {
            int min = RANGES[f][0];
            int max = RANGES[f][1];
            BitSet set = new BitSet();
            StringBuilder text = new StringBuilder();
            int kind = random.nextInt(f < 2 ? 5 : 6);
            if (kind == 0 || (f >= 2 && kind >= 4)) {
                text.append('*');
                set.set(min, max + 1);
            } else if (kind == 1) {
                int step = 1 + random.nextInt(Math.max(1, (max - min) / 2));
                text.append("*/").append(step);
                for (int v = min; v <= max; v += step) {
                    set.set(v);
                }
            } else {
                int parts = 1 + random.nextInt(3);
                for (int p = 0; p < parts; p++) {
                    int a = min + random.nextInt(max - min + 1);
                    int b = Math.min(max, a + random.nextInt(6));
                    if (p > 0) {
                        text.append(',');
                    }
                    if (kind == 2) {
                        text.append(name(f, a));
                        set.set(a);
                    } else {
                        int step = 1 + random.nextInt(3);
                        text.append(name(f, a)).append('-').append(name(f, b)).append(step > 1 ? "/" + step : "");
                        for (int v = a; v <= b; v += step) {
                            set.set(v);
                        }
                    }
                }
            }
            if (f == 4 && set.get(7)) {
                set.set(0);
            }
            texts[f] = text.toString();
            sets[f] = set;
        }
        return new Generated(String.join(" ", texts), sets, !texts[2].startsWith("*"), !texts[4].startsWith("*"));
    }

    private static String name(int field, int value) {
        String[] names = NAMES[field];
        if (names == null || value == 7 || new Random(value * 31L + field).nextBoolean()) {
            return String.valueOf(value);
        }
        return names[field == 3 ? value - 1 : value];
    }

    /** A fixed expression's sets, read by the same rules as the generator's (lists, ranges, steps, numbers only). */
    private static Generated fixed(String text) {
        String[] fields = text.split(" ");
        BitSet[] sets = new BitSet[5];
        for (int f = 0; f < 5; f++) {
            BitSet set = new BitSet();
            for (String part : fields[f].split(",")) {
                String[] stepped = part.split("/");
                int step = stepped.length > 1 ? Integer.parseInt(stepped[1]) : 1;
                int low;
                int high;
                if (stepped[0].equals("*")) {
                    low = RANGES[f][0];
                    high = RANGES[f][1];
                } else {
                    String[] range = stepped[0].split("-");
                    low = parseValue(f, range[0]);
                    high = range.length > 1 ? parseValue(f, range[1]) : low;
                }
                for (int v = low; v <= high; v += step) {
                    set.set(v);
                }
            }
            if (f == 4 && set.get(7)) {
                set.set(0);
            }
            sets[f] = set;
        }
        return new Generated(text, sets, !fields[2].startsWith("*"), !fields[4].startsWith("*"));
    }

    private static int parseValue(int field, String token) {
        if (NAMES[field] != null && Character.isLetter(token.charAt(0))) {
            List<String> names = List.of(NAMES[field]);
            return names.indexOf(token) + (field == 3 ? 1 : 0);
        }
        return Integer.parseInt(token);
    }
}
