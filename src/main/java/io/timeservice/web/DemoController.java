package io.timeservice.web;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.store.TimerStore;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Lets the web view load its learning scenarios on a fresh queue. Resetting wipes every pending timer, so it is
 * refused unless {@code timeservice.demo.enabled=true} (the {@code demo} profile sets it).
 */
@RestController
class DemoController {

    private final TimerStore timers;
    private final boolean enabled;

    DemoController(TimerStore timers, TimeServiceProperties properties) {
        this.timers = timers;
        this.enabled = properties.demo().enabled();
    }

    @GetMapping(path = "/demo", produces = MediaType.APPLICATION_JSON_VALUE)
    DemoJson demo() {
        return new DemoJson(enabled);
    }

    /** Empties the queue and restarts the virtual clock at 0. Sequences keep counting. */
    @PostMapping(path = "/demo/reset", produces = MediaType.APPLICATION_JSON_VALUE)
    ClockTimeController.ClockJson reset() {
        if (!enabled) {
            throw new ApiProblem(ProblemType.DEMO_DISABLED,
                    "scenarios are off on this service; start it with timeservice.demo.enabled=true "
                            + "(or the demo profile) to use them, never on a production queue");
        }
        timers.reset();
        return new ClockTimeController.ClockJson(0);
    }

    record DemoJson(boolean enabled) {
    }
}
