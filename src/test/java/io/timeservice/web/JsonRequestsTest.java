package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Set;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.core.ErrorCode;
import io.timeservice.core.SchedulerException;
import io.timeservice.journal.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/**
 * The parser's string and document limits equal the body cap, which the HTTP path enforces before parsing; here
 * they are met directly, at and beyond, on a small cap.
 */
class JsonRequestsTest {

    private static final int CAP = 1024;
    private final JsonRequests json = new JsonRequests(new TimeServiceProperties(new TimeServiceProperties.Heap(4),
            10, new TimeServiceProperties.Limits(CAP, 100, java.time.Duration.ofSeconds(30)), new TimeServiceProperties.Demo(false),
            TimeServiceProperties.Durability.NONE, java.nio.file.Path.of("unused"), FsyncPolicy.ALWAYS,
            java.time.Duration.ofSeconds(1), new TimeServiceProperties.Snapshot(4, DataSize.ofMegabytes(16)),
            new TimeServiceProperties.Security(java.util.List.of(), java.util.List.of(), false),
            new TimeServiceProperties.Invariants(java.time.Duration.ofSeconds(5), 100_000)));

    @Test
    void documentOfExactlyTheCap_parses_oneCharacterMoreDoesNot() {
        String head = "{\"id\":\"x\",\"delay\":1}";
        assertThat(parse(head + " ".repeat(CAP - head.length())).get("id").asString()).isEqualTo("x");
        assertRefused(head + " ".repeat(CAP + 1 - head.length()), "Document length");
    }

    @Test
    void stringOfTheLongestLengthADocumentCanHold_parses_oneLongerDoesNot() {
        String open = "{\"id\":\"";
        String close = "\"}";
        int longest = CAP - open.length() - close.length();
        assertThat(parse(open + "i".repeat(longest) + close).get("id").asString()).hasSize(longest);
        assertRefused(open + "i".repeat(CAP + 1) + close, "length");
    }

    @Test
    void refusals_areInvalidRequest_withoutInternals() {
        assertRefused("[" .repeat(65) + "]".repeat(65), "nesting depth (65) exceeds the maximum allowed (64)");
    }

    @Test
    void withoutInternals_cutsJacksonReferences() {
        assertThat(JsonRequests.withoutInternals(
                "Document nesting depth (65) exceeds the maximum allowed (64, from `StreamReadConstraints.getMaxNestingDepth()`)"))
                .isEqualTo("Document nesting depth (65) exceeds the maximum allowed (64)");
        assertThat(JsonRequests.withoutInternals("Trailing token (of type START_OBJECT) found after value (bound as "
                + "`tools.jackson.databind.JsonNode`): not allowed as per `DeserializationFeature.FAIL_ON_TRAILING_TOKENS`"))
                .isEqualTo("Trailing token (of type START_OBJECT) found after value");
        assertThat(JsonRequests.withoutInternals("odd `x.y.Z` here")).isEqualTo("odd a value here");
        assertThat(JsonRequests.withoutInternals(null)).isEqualTo("malformed JSON");
    }

    private tools.jackson.databind.node.ObjectNode parse(String body) {
        return json.parseObject(body.getBytes(StandardCharsets.UTF_8), Set.of("id", "delay"));
    }

    private void assertRefused(String body, String detailPart) {
        assertThatThrownBy(() -> parse(body))
                .isInstanceOfSatisfying(SchedulerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
                    assertThat(e.getMessage()).contains(detailPart).doesNotContain("`");
                });
    }
}
