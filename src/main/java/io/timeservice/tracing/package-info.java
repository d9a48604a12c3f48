/**
 * Tracing of a timer's journey (issue 46) on Micrometer Tracing, which Spring Boot bridges to OpenTelemetry: the
 * firing span linked to the trace contexts of the requests that added the fired timers, a receive span per claimed
 * delivery and a client span per push attempt, both children of that context, and the messaging attributes of the
 * server spans of adds, acks and nacks. With tracing off the tracer is Boot's no-op one and every method here returns
 * at once. May import {@code model}, {@code store} and {@code push} (its tracing port); the stores know nothing of it.
 */
package io.timeservice.tracing;
