package io.timeservice.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A parsed Prometheus text exposition: sample name with its label set, as written, to value. */
record PrometheusScrape(String text, Map<String, Double> samples) {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\\{[^}]*\\})?) (\\S+)$");

    static PrometheusScrape parse(String text) {
        Map<String, Double> samples = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher matcher = SAMPLE.matcher(line.trim());
            if (!line.startsWith("#") && matcher.matches()) {
                samples.put(matcher.group(1), Double.parseDouble(matcher.group(2)));
            }
        }
        return new PrometheusScrape(text, samples);
    }

    /** The value of the one sample whose name is {@code name} and whose labels include all of {@code labels}. */
    double value(String name, String... labels) {
        Double found = null;
        for (Map.Entry<String, Double> sample : samples.entrySet()) {
            String key = sample.getKey();
            boolean nameMatches = key.equals(name) || key.startsWith(name + "{");
            boolean labelsMatch = true;
            for (String label : labels) {
                labelsMatch &= key.contains(label);
            }
            if (nameMatches && labelsMatch) {
                if (found != null) {
                    throw new AssertionError("more than one sample matches " + name + " " + String.join(",", labels));
                }
                found = sample.getValue();
            }
        }
        if (found == null) {
            throw new AssertionError("no sample " + name + " " + String.join(",", labels) + " in scrape");
        }
        return found;
    }

    /** How much the sample {@code name} with {@code labels} grew from {@code before} to this scrape. */
    double since(PrometheusScrape before, String name, String... labels) {
        return value(name, labels) - before.value(name, labels);
    }

    boolean hasSampleStartingWith(String prefix) {
        return samples.keySet().stream().anyMatch(key -> key.startsWith(prefix));
    }
}
