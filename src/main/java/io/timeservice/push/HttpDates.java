package io.timeservice.push;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * An HTTP-date (RFC 9110, section 5.6.7) in any of the three forms a recipient must accept: the preferred IMF-fixdate
 * ({@code Sun, 06 Nov 1994 08:49:37 GMT}), and the obsolete RFC 850 ({@code Sunday, 06-Nov-94 08:49:37 GMT}) and
 * asctime ({@code Sun Nov  6 08:49:37 1994}) forms. A two-digit year is the one within 50 years of now, as the RFC
 * says: one that would be more than 50 years ahead is the most recent past year with those digits. Apache HttpClient's
 * {@code DateUtils} reads neither obsolete form (it reads the two digits as 20xx and an asctime date not at all), so
 * the JDK's formatters are used. Stateless and thread-safe.
 */
final class HttpDates {

    private static final DateTimeFormatter ASCTIME = new DateTimeFormatterBuilder().parseCaseInsensitive()
            .appendPattern("EEE MMM ppd HH:mm:ss yyyy").toFormatter(Locale.US).withZone(ZoneOffset.UTC);

    private HttpDates() {
    }

    /** The instant {@code text} names, or null when it is no HTTP-date; two-digit years are read around {@code now}. */
    static Instant parse(String text, Instant now) {
        try {
            return ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException notFixdate) {
            // one of the obsolete forms, or none
        }
        try {
            return ZonedDateTime.parse(text, rfc850(now)).toInstant();
        } catch (DateTimeParseException notRfc850) {
            // asctime, or none
        }
        try {
            return ZonedDateTime.parse(text, ASCTIME).toInstant();
        } catch (DateTimeParseException none) {
            return null;
        }
    }

    /** The RFC 850 form, its two-digit year read within 49 years back and 50 ahead of {@code now}. */
    private static DateTimeFormatter rfc850(Instant now) {
        LocalDate base = now.atOffset(ZoneOffset.UTC).toLocalDate().minusYears(49);
        return new DateTimeFormatterBuilder().parseCaseInsensitive()
                .appendPattern("EEEE, dd-MMM-")
                .appendValueReduced(ChronoField.YEAR, 2, 2, base)
                .appendPattern(" HH:mm:ss 'GMT'")
                .toFormatter(Locale.US).withZone(ZoneOffset.UTC);
    }
}
