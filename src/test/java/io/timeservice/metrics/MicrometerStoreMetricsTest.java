package io.timeservice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.timeservice.store.StoreMetrics.DeliveryEvent;
import io.timeservice.store.StoreMetrics.Operation;
import io.timeservice.store.StoreMetrics.Outcome;
import org.junit.jupiter.api.Test;

/** The scheduler's delivery callbacks as Micrometer meters and as the Prometheus text a scrape returns. */
class MicrometerStoreMetricsTest {

    @Test
    void deliveryEvents_countByEvent_withTheEventTagOnly() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerStoreMetrics metrics = new MicrometerStoreMetrics(registry);

        metrics.deliveries(DeliveryEvent.CLAIMED, 3);
        metrics.deliveries(DeliveryEvent.CLAIMED, 2);
        metrics.deliveries(DeliveryEvent.DEAD, 1);

        assertThat(registry.get("timer.deliveries").tag("event", "claimed").counter().count()).isEqualTo(5);
        assertThat(registry.get("timer.deliveries").tag("event", "dead").counter().count()).isEqualTo(1);
        assertThat(registry.get("timer.deliveries").tag("event", "acked").counter().count()).isZero();
        assertThat(registry.get("timer.deliveries").counters()).hasSize(DeliveryEvent.values().length)
                .allSatisfy(counter -> assertThat(counter.getId().getTags()).hasSize(1));
    }

    @Test
    void latenessAndFireLag_areRecordedInSeconds_intoTheirSloBuckets() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerStoreMetrics metrics = new MicrometerStoreMetrics(registry);

        metrics.deliveryLateness(3);
        metrics.deliveryLateness(1_500);
        metrics.fireLag(0);

        io.micrometer.core.instrument.Timer lateness = registry.get("timer.delivery.lateness").timer();
        assertThat(lateness.count()).isEqualTo(2);
        assertThat(lateness.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(1_503);
        assertThat(lateness.takeSnapshot().histogramCounts())
                .filteredOn(bucket -> bucket.bucket(TimeUnit.MILLISECONDS) == 5.0
                        || bucket.bucket(TimeUnit.MILLISECONDS) == 1_000.0
                        || bucket.bucket(TimeUnit.MILLISECONDS) == 2_500.0)
                .extracting(bucket -> bucket.count()).containsExactly(1.0, 1.0, 2.0);
        assertThat(registry.get("timer.fire.lag").timer().count()).isEqualTo(1);
    }

    @Test
    void prometheusScrape_namesTheDeliveryMetrics_withHistogramBucketsFrom1MsTo60s() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MicrometerStoreMetrics metrics = new MicrometerStoreMetrics(registry);

        metrics.deliveries(DeliveryEvent.ACKED, 4);
        metrics.deliveryLateness(20);
        metrics.deliveryLateness(2_000);
        metrics.fireLag(7);
        metrics.operation(Operation.CLAIM, Outcome.SUCCESS, 1_000_000);
        PrometheusScrape scrape = PrometheusScrape.parse(registry.scrape());

        assertThat(scrape.value("timer_deliveries_total", "event=\"acked\"")).isEqualTo(4);
        assertThat(scrape.value("timer_deliveries_total", "event=\"redriven\"")).isZero();
        assertThat(scrape.value("timer_delivery_lateness_seconds_count")).isEqualTo(2);
        assertThat(scrape.value("timer_delivery_lateness_seconds_sum")).isEqualTo(2.02);
        assertThat(scrape.value("timer_delivery_lateness_seconds_bucket", "le=\"0.025\"")).isEqualTo(1);
        assertThat(scrape.value("timer_delivery_lateness_seconds_bucket", "le=\"1.0\"")).isEqualTo(1);
        assertThat(scrape.value("timer_delivery_lateness_seconds_bucket", "le=\"2.5\"")).isEqualTo(2);
        assertThat(scrape.value("timer_delivery_lateness_seconds_bucket", "le=\"+Inf\"")).isEqualTo(2);
        assertThat(scrape.value("timer_fire_lag_seconds_bucket", "le=\"0.005\"")).isZero();
        assertThat(scrape.value("timer_fire_lag_seconds_bucket", "le=\"0.01\"")).isEqualTo(1);
        assertThat(bucketBounds(scrape, "timer_fire_lag_seconds_bucket")).containsExactly("0.001", "0.002",
                "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "30.0", "60.0",
                "+Inf");
        assertThat(scrape.value("timer_operation_seconds_count", "operation=\"claim\"", "outcome=\"success\""))
                .isEqualTo(1);
        for (Operation operation : Operation.values()) {
            assertThat(scrape.text()).contains("operation=\"" + operation.name().toLowerCase() + "\"");
        }
    }

    @Test
    void noDeliveryMeter_carriesAnyTagButEvent() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new MicrometerStoreMetrics(registry);

        List<Meter> delivery = registry.getMeters().stream()
                .filter(meter -> Arrays.asList("timer.deliveries", "timer.delivery.lateness", "timer.fire.lag")
                        .contains(meter.getId().getName()))
                .toList();
        assertThat(delivery).hasSize(DeliveryEvent.values().length + 2).allSatisfy(meter -> assertThat(
                meter.getId().getTags()).allSatisfy(tag -> assertThat(tag.getKey()).isEqualTo("event")));
    }

    private static List<String> bucketBounds(PrometheusScrape scrape, String bucket) {
        return scrape.samples().keySet().stream().filter(key -> key.startsWith(bucket + "{"))
                .map(key -> key.replaceAll(".*le=\"([^\"]*)\".*", "$1")).toList();
    }
}
