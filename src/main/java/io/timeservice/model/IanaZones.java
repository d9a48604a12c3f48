package io.timeservice.model;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.zone.ZoneRulesException;
import java.time.zone.ZoneRulesProvider;
import java.util.Map;
import java.util.NavigableMap;

/**
 * The IANA time zone names a cron schedule's {@code zone} may hold, and the rules each one means, from the JDK's
 * time-zone data (its {@code tzdb.dat}, updated with the JDK or Oracle's TZUpdater; {@link #dataVersion}). A name is
 * accepted when it is one of the JDK's region ids ({@link ZoneId#getAvailableZoneIds()}) other than the
 * {@code SystemV/} ones (which IANA dropped in 2020b), or one of the four IANA links the JDK leaves out of its data
 * ({@code EST MST HST ROC}), read as IANA reads them since 2024b (the zones they link to). Offsets and prefixed
 * offsets that {@link ZoneId#of} also reads ({@code +05:00}, {@code Z}, {@code GMT+5}, {@code UTC+01:00}) are not
 * IANA names and are refused: IANA's {@code Etc/GMT+5} is UTC-5 where {@code GMT+5} reads UTC+5. Immutable.
 */
public final class IanaZones {

    /** IANA links the JDK's data leaves out, to the zones IANA links them to (tzdata's {@code backward}). */
    private static final Map<String, String> LINKS_THE_JDK_LACKS = Map.of(
            "EST", "America/Panama", "MST", "America/Phoenix", "HST", "Pacific/Honolulu", "ROC", "Asia/Taipei");

    private IanaZones() {
    }

    /**
     * The zone {@code name} names, or null when it is no IANA name in this service's time-zone data (an offset, a
     * prefixed offset, a {@code SystemV/} id, a misspelling, or a zone newer than the JDK's data).
     */
    public static ZoneId zoneOf(String name) {
        String linked = LINKS_THE_JDK_LACKS.get(name);
        if (linked != null) {
            return ZoneId.of(linked);
        }
        if (name.startsWith("SystemV/") || !ZoneId.getAvailableZoneIds().contains(name)) {
            return null;
        }
        return ZoneId.of(name);
    }

    /**
     * Why {@code name}, which {@link #zoneOf} refused, is refused: a region name this service's data lacks (perhaps
     * a zone newer than it), or no IANA name at all.
     */
    public static String refusal(String name) {
        try {
            ZoneId.of(name);
        } catch (ZoneRulesException unknownRegion) {
            return "zone " + name + " is not in this service's time-zone data (the JDK's, IANA tzdata "
                    + dataVersion() + "): a misspelling, or a zone newer than that data, which a JDK with newer data"
                    + " (or its TZUpdater) brings";
        } catch (DateTimeException malformed) {
            // no region id at all: refused below
        }
        return "zone must be an IANA time zone name such as Europe/Berlin or Etc/GMT-5 (offsets such as +05:00, Z"
                + " or GMT+5 and SystemV/ ids are not): " + name;
    }

    /** The IANA tzdata release of the JDK's time-zone data, as {@code 2025a}. */
    public static String dataVersion() {
        NavigableMap<String, ?> versions = ZoneRulesProvider.getVersions("UTC");
        return versions.isEmpty() ? "unknown" : versions.lastKey();
    }
}
