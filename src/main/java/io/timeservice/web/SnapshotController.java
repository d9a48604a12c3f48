package io.timeservice.web;

import java.io.IOException;
import java.net.URI;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.model.ClockRules;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.PushTargetGuard;
import io.timeservice.model.SnapshotSizes;
import io.timeservice.store.ClockStore;
import io.timeservice.web.ClocksController.ClockJson;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Saved clocks: {@code GET /clocks/{clock}/snapshot} answers the clock as a snapshot document, written as it is
 * generated ({@link SnapshotWriter}) from a copy the store takes atomically; {@code PUT /clocks/{clock}/snapshot}
 * creates a clock from one, read as it arrives ({@link SnapshotReader}), all of it or nothing. Neither holds the
 * document whole. The body limit of a snapshot is {@code timeservice.limits.max-snapshot-bytes}
 * ({@link RequestBodyLimits}).
 */
@RestController
class SnapshotController {

    private final ClockStore clocks;
    private final SnapshotReader reader;
    private final PushTargetGuard targets;
    private final long maxSnapshotBytes;

    SnapshotController(ClockStore clocks, SnapshotReader reader, PushTargetGuard targets,
                       TimeServiceProperties properties) {
        this.clocks = clocks;
        this.reader = reader;
        this.targets = targets;
        this.maxSnapshotBytes = properties.limits().maxSnapshotBytes().toBytes();
    }

    /**
     * Refused (404, or 413 for a document a load would refuse as too large) before a byte of the answer is written:
     * the document is measured first, so every document a save answers loads back (as far as its size goes).
     */
    @GetMapping(path = "/clocks/{clock}/snapshot", produces = MediaType.APPLICATION_JSON_VALUE)
    void save(@PathVariable String clock, HttpServletResponse response) throws IOException {
        ClockSnapshot snapshot = clocks.snapshot(clock);
        if (SnapshotWriter.isLargerThan(snapshot, maxSnapshotBytes)) {
            throw SnapshotSizes.tooLargeToLoad(clock, maxSnapshotBytes);
        }
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        SnapshotWriter.write(snapshot, response.getOutputStream());
    }

    @PutMapping(path = "/clocks/{clock}/snapshot", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ClockJson> load(@PathVariable String clock, HttpServletRequest request) throws IOException {
        ClockRules.requireValidClockName(clock); // before reading a document for a clock that cannot be
        ClockSnapshot snapshot = reader.read(request.getInputStream());
        if (snapshot.settings().pushes()) {
            targets.requireAllowed(snapshot.settings().push()); // PUT /clocks' rule: resolved before the store is asked
        }
        return ResponseEntity.created(URI.create("/clocks/" + clock))
                .body(ClocksController.describe(clocks.load(clock, snapshot).clock()));
    }
}
