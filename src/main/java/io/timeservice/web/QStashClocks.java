package io.timeservice.web;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockView;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QStashRules;
import io.timeservice.store.ClockStore;
import org.springframework.stereotype.Component;

/**
 * The QStash clocks {@code qstash-r<retries>} (issue 47, docs/DROP-IN.md): made on first use with
 * {@link QStashRules#clockSettings}, and listed, by retry count, for the calls that look a message, schedule or dead
 * letter up by its id alone (QStash's ids name no clock). Thread-safe.
 */
@Component
class QStashClocks {

    private final ClockStore clocks;
    private final ClockSettings.Mode mode;

    QStashClocks(ClockStore clocks, TimeServiceProperties properties) {
        this.clocks = clocks;
        this.mode = properties.qstash().mode();
    }

    /**
     * Refuses, changing nothing, when the clock of {@code retries} exists with other settings: what {@link #require}
     * would refuse, asked before anything is made or stored (a batch asks it for every clock it needs first).
     */
    void check(int retries) {
        String clock = QStashRules.clockName(retries);
        ClockView view;
        try {
            view = clocks.get(clock);
        } catch (ProblemException absent) {
            if (absent.code() == ErrorCode.CLOCK_NOT_FOUND) {
                return;
            }
            throw absent;
        }
        if (!view.settings().equals(QStashRules.clockSettings(mode, retries))) {
            throw QStashRules.clockTaken(clock);
        }
    }

    /** The clock of {@code retries}, made unless it exists; refused when one of that name has other settings. */
    String require(int retries) {
        String clock = QStashRules.clockName(retries);
        ClockSettings settings = QStashRules.clockSettings(mode, retries);
        ClockView view;
        try {
            view = clocks.get(clock);
        } catch (ProblemException absent) {
            if (absent.code() != ErrorCode.CLOCK_NOT_FOUND) {
                throw absent;
            }
            try {
                view = clocks.create(clock, System.currentTimeMillis(), settings).clock();
            } catch (ProblemException raced) { // made meanwhile by another call, at another now
                view = clocks.get(clock);
            }
        }
        if (!view.settings().asPut().equals(settings)) { // a paused QStash clock still takes messages and holds them
            throw QStashRules.clockTaken(clock);
        }
        return clock;
    }

    /** The QStash clocks that exist, by retry count (0 first). */
    List<String> existing() {
        List<String> names = new ArrayList<>();
        String after = QStashRules.CLOCK_PREFIX;
        while (true) {
            List<ClockView> page = clocks.list(100, after);
            for (ClockView view : page) {
                if (!view.name().startsWith(QStashRules.CLOCK_PREFIX)) {
                    names.sort(Comparator.comparingInt(QStashRules::retriesOf));
                    return names;
                }
                if (QStashRules.retriesOf(view.name()) >= 0) {
                    names.add(view.name());
                }
                after = view.name();
            }
            if (page.size() < 100) {
                names.sort(Comparator.comparingInt(QStashRules::retriesOf));
                return names;
            }
        }
    }
}
