package io.timeservice.config;

import java.util.concurrent.ScheduledExecutorService;

import io.micrometer.core.instrument.MeterRegistry;
import io.timeservice.metrics.MicrometerPushMetrics;
import io.timeservice.push.PushClient;
import io.timeservice.push.PushMetrics;
import io.timeservice.push.PushTargetPolicy;
import io.timeservice.push.Pusher;
import io.timeservice.store.ClockStore;
import io.timeservice.store.DeliveryStore;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Push delivery on either store: the target policy (the SSRF guard, used by {@code PUT /clocks} and at every
 * connection), the HTTP client and the pusher, started once the store serves and stopped before it closes.
 */
@Configuration(proxyBeanMethods = false)
class PushConfiguration {

    private static final System.Logger LOG = System.getLogger(PushConfiguration.class.getName());

    @Bean
    PushTargetPolicy pushTargetPolicy(TimeServiceProperties properties) {
        TimeServiceProperties.Push push = properties.push();
        if (push.allowPrivateTargets()) {
            LOG.log(System.Logger.Level.WARNING, "timeservice.push.allow-private-targets=true: push targets may be"
                    + " loopback, private and link-local addresses (cloud metadata included); use it for tests and"
                    + " private networks only");
        }
        return new PushTargetPolicy(push.allowPrivateTargets(), push.allowedHosts(),
                java.net.InetAddress::getAllByName);
    }

    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService pushTimers() {
        java.util.concurrent.ScheduledThreadPoolExecutor timers = new java.util.concurrent.ScheduledThreadPoolExecutor(
                1, runnable -> {
                    Thread thread = new Thread(runnable, "timeservice-push-timers");
                    thread.setDaemon(true);
                    return thread;
                });
        // the pusher's sweep and the client's deadline sweeps: a few tasks, each short
        return timers;
    }

    @Bean(destroyMethod = "close")
    PushClient pushClient(PushTargetPolicy policy, TimeServiceProperties properties,
                          ScheduledExecutorService pushTimers, PushMetrics metrics) {
        TimeServiceProperties.Push push = properties.push();
        return new PushClient(policy, push.ioThreads(), push.maxConnections(), pushTimers,
                System::currentTimeMillis, metrics);
    }

    /** The last push attempts of each clock, for the console (in memory, bounded). */
    @Bean
    io.timeservice.push.RecentPushes recentPushes() {
        return new io.timeservice.push.RecentPushes(System::currentTimeMillis);
    }

    @Bean(destroyMethod = "close")
    Pusher pusher(ClockStore clocks, DeliveryStore deliveries, PushClient client, PushMetrics metrics,
                  TimeServiceProperties properties, ScheduledExecutorService pushTimers, MeterRegistry registry,
                  io.timeservice.model.QStashMessage.Codec qstashMessages, io.timeservice.push.RecentPushes recent,
                  io.timeservice.model.CloudTask.Codec cloudTasks) {
        TimeServiceProperties.Push push = properties.push();
        // the memory store without a journal never waits for I/O: its answers are settled where they arrive
        boolean neverWaits = properties.store() == StoreAutoConfigurationFilter.Store.MEMORY
                && properties.durability() == TimeServiceProperties.Durability.NONE;
        // ... and forgets its sequences at a restart: webhook-ids then carry the start's tag, never to repeat
        io.timeservice.push.QStashSender sender = new io.timeservice.push.QStashSender(client, client,
                qstashMessages, properties.qstash().currentSigningKey(), System::currentTimeMillis); // QStash messages, else as is
        // Cloud Tasks' tasks (issue 47) first, every other push through the QStash sender
        io.timeservice.push.CloudTasksSender tasks = new io.timeservice.push.CloudTasksSender(sender, client,
                cloudTasks);
        Pusher pusher = new Pusher(clocks, deliveries, tasks, recent.around(metrics), push.threads(), pushTimers,
                push.sweep(),
                neverWaits, neverWaits ? Pusher.newInstance() : null);
        MicrometerPushMetrics.inFlightGauge(registry, pusher::inFlight);
        return pusher;
    }

    /** Starts pushing with the other lifecycles (the stores serve by then) and stops before the store closes. */
    @Bean
    SmartLifecycle pusherLifecycle(Pusher pusher, TimeServiceProperties properties) {
        return new SmartLifecycle() {
            private volatile boolean running;

            @Override
            public void start() {
                pusher.start();
                running = true;
            }

            @Override
            public void stop() {
                pusher.stop(properties.push().shutdownGrace());
                running = false;
            }

            @Override
            public boolean isRunning() {
                return running;
            }
        };
    }
}
