package io.timeservice.web;

import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * The JSON bodies the API reads, bound by {@link StrictJsonConverter}: a member's type is its whole rule here (no
 * coercion, no {@code null} for a member that may only be absent); ranges, id syntax and "an edit needs something
 * to change" are the scheduler's to check, once.
 */
sealed interface JsonRequest {

    /** {@code POST /timers}; {@code payload} is any JSON value, numbers kept as written. */
    record AddTimer(@JsonProperty(required = true) String id, @JsonProperty(required = true) long delay,
                    @JsonDeserialize(using = AbsentOrNonNull.class) Integer priority,
                    JsonNode payload) implements JsonRequest {
    }

    /** {@code PATCH /timers/{id}}: an absent member keeps its value. */
    record EditTimer(@JsonDeserialize(using = AbsentOrNonNull.class) Long delay,
                     @JsonDeserialize(using = AbsentOrNonNull.class) Integer priority) implements JsonRequest {
    }

    /** {@code POST /batch}: the operations, each bound by its {@code op} ({@link BatchController}). */
    record Batch(@JsonProperty(required = true) JsonNode ops) implements JsonRequest {
    }

    /** {@code PUT /clocks/{clock}}: the time a new clock starts at, 0 when absent. */
    record PutClock(@JsonDeserialize(using = AbsentOrNonNull.class) Long now) implements JsonRequest {
    }

    /** {@code POST /clock/advance}: exactly one of {@code by} (from now) and {@code to} (absolute). */
    record Advance(@JsonDeserialize(using = AbsentOrNonNull.class) Long by,
                   @JsonDeserialize(using = AbsentOrNonNull.class) Long to) implements JsonRequest {
    }
}
