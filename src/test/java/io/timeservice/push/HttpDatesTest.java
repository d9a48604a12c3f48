package io.timeservice.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 41 item 11: Retry-After's HTTP-date in each of the three forms RFC 9110 requires a recipient to accept. */
class HttpDatesTest {

    private static final Instant NOW = Instant.parse("2026-12-07T00:00:00Z");

    @ParameterizedTest
    @ValueSource(strings = {"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994", "sunday, 06-nov-94 08:49:37 GMT"})
    void theRfc9110Example_inEachForm_isTheSameInstant(String date) {
        assertThat(HttpDates.parse(date, NOW)).isEqualTo(Instant.parse("1994-11-06T08:49:37Z"));
    }

    @Test
    void aTwoDigitYear_isWithinFiftyYearsOfNow() {
        assertThat(HttpDates.parse("Monday, 07-Dec-26 00:01:40 GMT", NOW))
                .isEqualTo(Instant.parse("2026-12-07T00:01:40Z"));
        assertThat(HttpDates.parse("Monday, 07-Dec-76 00:00:00 GMT", NOW))
                .isEqualTo(Instant.parse("2076-12-07T00:00:00Z"));
        assertThat(HttpDates.parse("Thursday, 07-Dec-78 00:00:00 GMT", NOW)).as("more than 50 years ahead: the past")
                .isEqualTo(Instant.parse("1978-12-07T00:00:00Z"));
    }

    @Test
    void anAsctimeDateWithATwoDigitDay_isRead() {
        assertThat(HttpDates.parse("Thu Dec 17 01:00:00 2026", NOW)).isEqualTo(Instant.parse("2026-12-17T01:00:00Z"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"soon", "Sun, 06 Nov 1994", "Sunday, 06-Nov-94 08:49:37 PST", "1994-11-06T08:49:37Z",
        "Sun Nov 6 08:49:37 1994 GMT"})
    void anythingElse_isNoDate(String text) {
        assertThat(HttpDates.parse(text, NOW)).isNull();
    }

    @Test
    void retryAfter_inAnObsoleteForm_isAWait() {
        long now = NOW.toEpochMilli();
        assertThat(PushClient.retryAfterMillis("Monday, 07-Dec-26 00:01:40 GMT", now)).isEqualTo(100_000);
        assertThat(PushClient.retryAfterMillis("Mon Dec  7 00:01:40 2026", now)).isEqualTo(100_000);
        assertThat(PushClient.retryAfterMillis("Mon, 07 Dec 2026 00:01:40 GMT", now)).isEqualTo(100_000);
        assertThat(PushClient.retryAfterMillis("Sun, 06 Dec 2026 00:00:00 GMT", now)).isZero();
        assertThat(PushClient.retryAfterMillis("120", now)).isEqualTo(120_000);
    }
}
