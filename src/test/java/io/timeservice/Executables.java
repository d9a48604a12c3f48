package io.timeservice;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the programs some tests drive (Chromium, chromedriver, promtool) the way {@code ./test} finds them: the file
 * an environment variable names, otherwise the first of the names on PATH. A missing program fails the test instead
 * of skipping it: a test that silently does not run proves nothing.
 */
public final class Executables {

    private Executables() {
    }

    /**
     * @param variable environment variable that may name the program, e.g. {@code CHROMIUM_BINARY}
     * @param need     what needs it and which Debian packages provide it, for the failure message
     * @param names    program names to look for on PATH, preferred first
     */
    public static Path find(String variable, String need, String... names) {
        String named = System.getenv(variable);
        if (named != null && !named.isEmpty()) {
            if (!Files.isExecutable(Path.of(named))) {
                fail(variable + "=" + named + " is not an executable file.");
            }
            return Path.of(named);
        }
        String path = System.getenv().getOrDefault("PATH", "");
        for (String name : names) {
            for (String directory : path.split(File.pathSeparator)) {
                Path candidate = Path.of(directory.isEmpty() ? "." : directory, name);
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        return fail(String.join(" or ", names) + " is not on PATH (" + path + ") and " + variable + " is not set: "
                + need + ". Run ./test, which installs what the tests need before it runs them.");
    }
}
