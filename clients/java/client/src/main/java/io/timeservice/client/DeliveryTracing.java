package io.timeservice.client;

/**
 * Runs a handler in the trace of its delivery when an OpenTelemetry API is on the class path (the service's issue 46):
 * a consumer span {@code process <clock>}, a child of the delivery's {@code traceparent}, is current while the
 * handler runs, so the handler's own spans join the trace of the request that added the timer. Without the API (it is
 * an optional dependency of this client), or for a delivery without a context, the handler just runs.
 */
final class DeliveryTracing {

    /** Whether {@code io.opentelemetry.api} can be loaded; decided once. */
    private static final boolean AVAILABLE = available();

    private DeliveryTracing() {
    }

    static void run(String clock, Delivery delivery, DeliveryHandler handler) throws Exception {
        if (AVAILABLE && delivery.traceparent() != null) {
            OpenTelemetryTracing.run(clock, delivery, handler);
        } else {
            handler.handle(delivery);
        }
    }

    private static boolean available() {
        try {
            Class.forName("io.opentelemetry.api.GlobalOpenTelemetry", false, DeliveryTracing.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError absent) {
            return false;
        }
    }
}
