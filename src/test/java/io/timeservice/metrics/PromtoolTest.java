package io.timeservice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The lint helper itself: it must catch what PrometheusLintTest relies on it to catch. */
class PromtoolTest {

    @Test
    void checkMetrics_abbreviatedUnit_isReported() {
        Promtool.Report report = Promtool.checkMetrics("""
                # HELP timer_queue_oldest_age_virtual_ms Virtual-clock age
                # TYPE timer_queue_oldest_age_virtual_ms gauge
                timer_queue_oldest_age_virtual_ms 30.0
                """);

        assertThat(report.clean()).isFalse();
        assertThat(report.problems()).containsExactly(
                "timer_queue_oldest_age_virtual_ms metric names should not contain abbreviated units");
    }

    @Test
    void checkMetrics_nonBaseUnitAndMissingHelp_areReported() {
        Promtool.Report report = Promtool.checkMetrics("""
                # HELP timer_queue_oldest_age_virtual_milliseconds Virtual-clock age
                # TYPE timer_queue_oldest_age_virtual_milliseconds gauge
                timer_queue_oldest_age_virtual_milliseconds 30.0
                # TYPE tomcat_sessions_active_current_sessions gauge
                tomcat_sessions_active_current_sessions 0.0
                """);

        assertThat(report.problems()).containsExactlyInAnyOrder(
                "timer_queue_oldest_age_virtual_milliseconds use base unit \"seconds\" instead of \"milliseconds\"",
                "tomcat_sessions_active_current_sessions no help text");
    }

    @Test
    void checkMetrics_cleanExposition_passes() {
        Promtool.Report report = Promtool.checkMetrics("""
                # HELP timer_queue_oldest_age_virtual_seconds Virtual-clock age
                # TYPE timer_queue_oldest_age_virtual_seconds gauge
                timer_queue_oldest_age_virtual_seconds 0.03
                """);

        assertThat(report.problems()).isEmpty();
        assertThat(report.clean()).isTrue();
    }
}
