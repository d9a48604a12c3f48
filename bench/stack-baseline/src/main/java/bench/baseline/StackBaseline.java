package bench.baseline;

import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A POST /timers that accepts TimeService's request body, validates it and answers 201 with a Location and a small
 * JSON body, keeping nothing: what Spring MVC, Jackson, bean validation and the request metrics cost by themselves.
 */
@SpringBootApplication
public class StackBaseline {

    public static void main(String[] args) {
        SpringApplication.run(StackBaseline.class, args);
    }

    record AddRequest(@NotBlank @Size(max = 256) String id, @NotNull @PositiveOrZero Long delay, Integer priority) {
    }

    record Added(String id, long fireTime, int priority, long sequence, long version) {
    }

    @RestController
    static class Timers {
        private final AtomicLong sequence = new AtomicLong();

        @PostMapping(path = "/timers", consumes = "application/json", produces = "application/json")
        ResponseEntity<Added> add(@Valid @RequestBody AddRequest request) {
            int priority = request.priority() == null ? 0 : request.priority();
            Added added = new Added(request.id(), request.delay(), priority, sequence.incrementAndGet(), 1);
            return ResponseEntity.created(URI.create("/timers/" + request.id())).body(added);
        }
    }
}
