package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

import io.timeservice.model.ErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The problem catalogue: every refusal of the scheduler has its entry, and every code keeps its status. */
class ProblemTypeTest {

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void everySchedulerRefusal_hasAnEntry_withTheSameCode(ErrorCode refusal) {
        assertThat(ProblemType.of(refusal).code()).isEqualTo(refusal.code());
    }

    @Test
    void everyCode_keepsItsStatus_typeAndTitle() {
        Map<String, Integer> statuses = new TreeMap<>();
        Arrays.stream(ProblemType.values()).forEach(type -> statuses.put(type.code(), type.status().value()));

        assertThat(statuses).isEqualTo(new TreeMap<>(Map.ofEntries(
                Map.entry("invalid_request", 400), Map.entry("invalid_snapshot", 400), Map.entry("invalid_id", 400),
                Map.entry("invalid_delay", 400),
                Map.entry("invalid_priority", 400), Map.entry("invalid_advance", 400),
                Map.entry("invalid_limit", 400), Map.entry("invalid_schedule", 400), Map.entry("schedule_not_found", 404),
                Map.entry("schedule_limit", 429), Map.entry("schedule_owned", 409),
                Map.entry("idempotency_key_reused", 422), Map.entry("idempotency_key_in_use", 409),
                Map.entry("idempotency_key_limit", 429), Map.entry("unauthorized", 401), Map.entry("forbidden", 403),
                Map.entry("protected_mode", 403), Map.entry("not_found", 404), Map.entry("timer_not_found", 404),
                Map.entry("queue_empty", 404), Map.entry("demo_disabled", 404),
                Map.entry("reservation_not_found", 404), Map.entry("reservation_limit", 429),
                Map.entry("flow_key_not_found", 404), Map.entry("flow_key_limit", 429),
                Map.entry("method_not_allowed", 405), Map.entry("not_acceptable", 406),
                Map.entry("duplicate_id", 409), Map.entry("version_limit_reached", 409),
                Map.entry("precondition_failed", 412), Map.entry("payload_too_large", 413),
                Map.entry("unsupported_media_type", 415), Map.entry("capacity_exceeded", 429),
                Map.entry("client_error", 400), Map.entry("internal_error", 500),
                Map.entry("storage_unavailable", 503), Map.entry("clock_not_found", 404),
                Map.entry("clock_conflict", 409), Map.entry("clock_undeletable", 409),
                Map.entry("clock_limit", 429), Map.entry("clock_not_virtual", 409),
                Map.entry("clock_not_scaled", 409), Map.entry("clock_not_queued", 409), Map.entry("claim_lost", 409),
                Map.entry("delivery_not_found", 404), Map.entry("target_not_allowed", 400))));
        assertThat(ProblemType.TIMER_NOT_FOUND.type()).hasToString("urn:timeservice:problem:timer_not_found");
        assertThat(ProblemType.PAYLOAD_TOO_LARGE.title()).isEqualTo("Content Too Large");
    }

    @Test
    void problemsFoundOutsideOurValidation_getTheCodeOfTheirStatus() {
        assertThat(ProblemType.ofStatus(400)).isEqualTo(ProblemType.INVALID_REQUEST);
        assertThat(ProblemType.ofStatus(404)).isEqualTo(ProblemType.NOT_FOUND);
        assertThat(ProblemType.ofStatus(413)).isEqualTo(ProblemType.PAYLOAD_TOO_LARGE);
        assertThat(ProblemType.ofStatus(431)).isEqualTo(ProblemType.CLIENT_ERROR);
        assertThat(ProblemType.ofStatus(503)).isEqualTo(ProblemType.INTERNAL_ERROR);
    }

    @Test
    void theRenderer_writesWhatSpringMvcWrites_evenForATargetThatIsNotAUri() {
        String body = new String(Problems.render(Problems.problem(ProblemType.INVALID_REQUEST, "bad"), "/timers/a"),
                StandardCharsets.UTF_8);
        String odd = new String(Problems.render(Problems.problem(ProblemType.INVALID_REQUEST, "bad"), "/timers/a b"),
                StandardCharsets.UTF_8);

        assertThat(body).isEqualTo("{\"detail\":\"bad\",\"instance\":\"/timers/a\",\"status\":400,"
                + "\"title\":\"Bad Request\",\"type\":\"urn:timeservice:problem:invalid_request\","
                + "\"code\":\"invalid_request\"}");
        assertThat(odd).isEqualTo("{\"detail\":\"bad\",\"status\":400,\"title\":\"Bad Request\","
                + "\"type\":\"urn:timeservice:problem:invalid_request\",\"code\":\"invalid_request\","
                + "\"instance\":\"/timers/a b\"}");
    }
}
