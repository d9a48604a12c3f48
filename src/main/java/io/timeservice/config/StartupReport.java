package io.timeservice.config;

import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Logs the effective configuration once, when the port is known, so an operator sees what is running. */
@Component
class StartupReport {

    private static final Logger log = LoggerFactory.getLogger(StartupReport.class);

    private final TimeServiceProperties properties;

    StartupReport(TimeServiceProperties properties) {
        this.properties = properties;
    }

    @EventListener
    void onStarted(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() != null) {
            return; // a separate management port fires its own event; report the main server only
        }
        boolean memory = properties.store() == StoreAutoConfigurationFilter.Store.MEMORY;
        boolean journal = memory && properties.durability() == TimeServiceProperties.Durability.JOURNAL;
        log.info("TimeService ready: port={} store={} arity={} capacity={} capacityBytes={} clock={} durability={}{} "
                        + "maxBodyBytes={} maxPayloadBytes={} demo={}",
                event.getWebServer().getPort(), properties.store().name().toLowerCase(Locale.ROOT),
                properties.heap().arity(), properties.capacity(), properties.capacityBytes().toBytes(),
                properties.clock().mode().name().toLowerCase(Locale.ROOT),
                !memory ? "database" : journal ? "journal" : "none",
                journal ? " dataDir=" + properties.dataDir().toAbsolutePath().normalize() + " fsync="
                        + properties.fsync().name().toLowerCase(Locale.ROOT) : "",
                properties.limits().maxBodyBytes(), properties.limits().maxPayloadBytes(),
                properties.demo().enabled());
    }
}
