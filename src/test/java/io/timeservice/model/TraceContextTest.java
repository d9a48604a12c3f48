package io.timeservice.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TraceContextTest {

    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aValidTraceparent_isKept_withItsTracestate() {
        String context = TraceContext.of(PARENT, "congo=t61rcWkgMzE");
        assertThat(context).isEqualTo(PARENT + ";congo=t61rcWkgMzE");
        assertThat(TraceContext.traceparent(context)).isEqualTo(PARENT);
        assertThat(TraceContext.tracestate(context)).isEqualTo("congo=t61rcWkgMzE");
        assertThat(TraceContext.traceId(context)).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(TraceContext.isValid(context)).isTrue();
        assertThat(TraceContext.of(PARENT, null)).isEqualTo(PARENT);
        assertThat(TraceContext.tracestate(PARENT)).isNull();
    }

    @Test
    void malformedContexts_areIgnored() {
        assertThat(TraceContext.of(null, "a=b")).isNull();
        assertThat(TraceContext.of("00-nonsense", null)).isNull();
        assertThat(TraceContext.of("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null)).isNull();
        assertThat(TraceContext.of("00-00000000000000000000000000000000-00f067aa0ba902b7-01", null)).isNull();
        assertThat(TraceContext.of("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", null)).isNull();
        assertThat(TraceContext.of(PARENT, "x".repeat(513))).isEqualTo(PARENT);
        assertThat(TraceContext.of(PARENT, "caf\u00e9=1")).isEqualTo(PARENT);
        assertThat(TraceContext.isValid(PARENT + "x")).isFalse();
        assertThat(TraceContext.isValid("garbage")).isFalse();
    }
}
