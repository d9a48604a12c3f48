package io.timeservice.cron;

import java.time.LocalDateTime;
import java.util.BitSet;
import java.util.Locale;
import java.util.Map;

import io.timeservice.model.CronParser;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.LocalRecurrence;
import io.timeservice.model.ProblemException;
import org.springframework.scheduling.support.CronExpression;

/**
 * Unix cron on Spring's matcher. Each field is read here into the set of values it names, with Unix's rules (a step
 * over {@code *} counts from the field's minimum: day-of-week {@code *&#47;2} is Sunday, Tuesday, Thursday,
 * Saturday; 7 is Sunday), and handed to Spring as an explicit list, since Spring reads some forms otherwise (its
 * day-of-week runs 1-7 from Monday, so its {@code *&#47;2} starts on Monday) and knows forms Unix does not
 * ({@code ? L W #}), which are refused here. When both day fields are restricted (neither starts with {@code *}, as
 * crontab(5) puts it) a day matches if either does: two Spring expressions, one per day field, and the earlier
 * match wins.
 *
 * <p>Thread-safe: parsed expressions are immutable.
 */
public final class UnixCronParser implements CronParser {

    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 1 1 *", "@annually", "0 0 1 1 *", "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0", "@daily", "0 0 * * *", "@midnight", "0 0 * * *", "@hourly", "0 * * * *");
    private static final String[] MONTHS = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT",
        "NOV", "DEC"};
    private static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};
    /** Longest expression read: far more than any real one, bounding the parse. */
    private static final int MAX_LENGTH = 1_000;

    private record Field(String name, int min, int max, String[] names, int nameBase) {
    }

    private static final Field SECOND = new Field("second", 0, 59, null, 0);
    private static final Field MINUTE = new Field("minute", 0, 59, null, 0);
    private static final Field HOUR = new Field("hour", 0, 23, null, 0);
    private static final Field DAY_OF_MONTH = new Field("day-of-month", 1, 31, null, 0);
    private static final Field MONTH = new Field("month", 1, 12, MONTHS, 1);
    private static final Field DAY_OF_WEEK = new Field("day-of-week", 0, 7, DAYS, 0);

    @Override
    public LocalRecurrence parse(String expression) {
        if (expression == null || expression.isBlank() || expression.length() > MAX_LENGTH) {
            throw invalid("cron must be 1 to " + MAX_LENGTH + " characters of five or six fields, or a macro");
        }
        for (int i = 0; i < expression.length(); i++) {
            char c = expression.charAt(i);
            if (c < ' ' || c > '~') { // named by code point, never echoed: a NUL or escape sequence stays out of answers
                throw invalid(String.format("cron holds U+%04X at index %d; it is printable ASCII, its fields"
                        + " separated by spaces", (int) c, i));
            }
        }
        String trimmed = expression.trim();
        String text = trimmed.startsWith("@") ? MACROS.get(trimmed.toLowerCase(Locale.ROOT)) : trimmed;
        if (text == null) {
            throw invalid("unknown cron macro " + trimmed + "; known: @yearly @annually @monthly @weekly @daily"
                    + " @midnight @hourly");
        }
        String[] fields = text.split("\\s+");
        if (fields.length != 5 && fields.length != 6) {
            throw invalid("cron has five fields (minute hour day-of-month month day-of-week) or six (seconds first),"
                    + " got " + fields.length + ": " + expression);
        }
        int at = fields.length - 5;
        String seconds = at == 0 ? "0" : list(SECOND, fields[0]);
        String minutes = list(MINUTE, fields[at]);
        String hours = list(HOUR, fields[at + 1]);
        String daysOfMonth = list(DAY_OF_MONTH, fields[at + 2]);
        String months = list(MONTH, fields[at + 3]);
        String daysOfWeek = list(DAY_OF_WEEK, fields[at + 4]);
        String time = seconds + " " + minutes + " " + hours + " ";
        boolean domRestricted = !fields[at + 2].startsWith("*");
        boolean dowRestricted = !fields[at + 4].startsWith("*");
        if (domRestricted && dowRestricted) {
            CronExpression byMonthDay = CronExpression.parse(time + daysOfMonth + " " + months + " *");
            CronExpression byWeekDay = CronExpression.parse(time + "* " + months + " " + daysOfWeek);
            return after -> earlier(byMonthDay.next(after), byWeekDay.next(after));
        }
        CronExpression both = CronExpression.parse(time + daysOfMonth + " " + months + " " + daysOfWeek);
        return both::next;
    }

    private static LocalDateTime earlier(LocalDateTime a, LocalDateTime b) {
        return a == null ? b : b == null || a.isBefore(b) ? a : b;
    }

    /** The values a field names, as a comma-separated list of numbers (day-of-week 7 read as 0). */
    private static String list(Field field, String text) {
        BitSet values = new BitSet(field.max + 1);
        for (String part : text.split(",", -1)) {
            addPart(field, part, values, text);
        }
        if (field == DAY_OF_WEEK && values.get(7)) {
            values.clear(7);
            values.set(0);
        }
        StringBuilder list = new StringBuilder();
        for (int value = values.nextSetBit(0); value >= 0; value = values.nextSetBit(value + 1)) {
            list.append(list.isEmpty() ? "" : ",").append(value);
        }
        return list.toString();
    }

    private static void addPart(Field field, String part, BitSet values, String text) {
        String range = part;
        int step = 1;
        int slash = part.indexOf('/');
        if (slash >= 0) {
            range = part.substring(0, slash);
            step = number(field, part.substring(slash + 1), text);
            if (step < 1 || step > field.max) {
                throw invalid("step " + step + " in the " + field.name + " field " + text + " must be 1 to "
                        + field.max);
            }
        }
        int low;
        int high;
        if (range.equals("*")) {
            low = field.min;
            high = field.max;
        } else {
            int dash = range.indexOf('-');
            low = value(field, dash < 0 ? range : range.substring(0, dash), text);
            high = dash < 0 ? (slash >= 0 ? field.max : low) : value(field, range.substring(dash + 1), text);
            if (high < low) {
                throw invalid("range " + range + " in the " + field.name + " field runs backwards");
            }
        }
        for (int value = low; value <= high; value += step) {
            values.set(value);
        }
    }

    private static int value(Field field, String token, String text) {
        if (field.names != null && !token.isEmpty() && Character.isLetter(token.charAt(0))) {
            String upper = token.toUpperCase(Locale.ROOT);
            for (int i = 0; i < field.names.length; i++) {
                if (field.names[i].equals(upper)) {
                    return i + field.nameBase;
                }
            }
            throw invalid("unknown name " + token + " in the " + field.name + " field " + text);
        }
        int value = number(field, token, text);
        if (value < field.min || value > field.max) {
            throw invalid(field.name + " " + value + " in " + text + " must be " + field.min + " to " + field.max);
        }
        return value;
    }

    private static int number(Field field, String token, String text) {
        if (token.isEmpty() || token.length() > 2 || !token.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw invalid("the " + field.name + " field " + text + " holds " + (token.isEmpty() ? "an empty part"
                    : "\"" + token + "\"") + "; a field is *, numbers" + (field.names == null ? "" : ", names")
                    + ", ranges a-b, steps /n and lists of them");
        }
        return Integer.parseInt(token);
    }

    private static ProblemException invalid(String message) {
        return new ProblemException(ErrorCode.INVALID_SCHEDULE, message);
    }
}
