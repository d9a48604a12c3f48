package io.timeservice;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The package map (README and docs/DESIGN.md), as a rule: each package imports only the project packages its row
 * names. The model imports nothing of the project; the two stores never import each other; the web layer reaches the
 * stores only through the ports in {@code store} (and reports through {@code StoreMetrics}, never through the
 * Micrometer adapter in metrics).
 */
class PackageMapTest {

    /** Package → the project packages it may import (besides itself); the README's "may import" column. */
    static final Map<String, Set<String>> MAY_IMPORT = new LinkedHashMap<>();

    static {
        MAY_IMPORT.put("model", Set.of());
        MAY_IMPORT.put("store", Set.of("model"));
        MAY_IMPORT.put("store.memory", Set.of("store", "model", "store.memory.heap", "store.memory.time"));
        MAY_IMPORT.put("store.memory.heap", Set.of("model"));
        MAY_IMPORT.put("store.memory.time", Set.of("model"));
        MAY_IMPORT.put("store.memory.journal", Set.of("store.memory", "store", "model"));
        MAY_IMPORT.put("store.postgres", Set.of("store", "model"));
        MAY_IMPORT.put("cron", Set.of("model"));
        MAY_IMPORT.put("tracing", Set.of("model", "store", "push"));
        MAY_IMPORT.put("web", Set.of("store", "model", "config", "tracing"));
        MAY_IMPORT.put("security", Set.of("web", "model", "config"));
        MAY_IMPORT.put("push", Set.of("store", "model"));
        MAY_IMPORT.put("metrics", Set.of("model", "store", "store.memory", "store.memory.time",
                "store.memory.journal", "store.postgres", "push", "tracing"));
        MAY_IMPORT.put("config", Set.of("model", "cron", "store", "store.memory", "store.memory.time",
                "store.memory.journal", "store.postgres", "push", "metrics", "security", "tracing"));
    }

    /** The application's own class files only (not the tests), imported from where they were compiled to. */
    private static final JavaClasses MAIN = ArchConfiguration.withThreadLocalScope(configuration -> {
        configuration.setResolveMissingDependenciesFromClassPath(false);
        return new ClassFileImporter().importPath(compiledMainClasses());
    });

    private static Path compiledMainClasses() {
        try {
            return Path.of(TimeServiceApplication.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The package and its sub-packages; the package alone when a sub-package has a row of its own ({@code store},
     * {@code store.memory}).
     */
    private static String pattern(String name) {
        boolean split = MAY_IMPORT.keySet().stream().anyMatch(other -> other.startsWith(name + "."));
        return "io.timeservice." + name + (split ? "" : "..");
    }

    static Set<String> packages() {
        return MAY_IMPORT.keySet();
    }

    @ParameterizedTest
    @MethodSource("packages")
    void eachPackage_importsOnlyWhatThePackageMapAllows(String name) {
        String[] forbidden = MAY_IMPORT.keySet().stream()
                .filter(other -> !other.equals(name) && !MAY_IMPORT.get(name).contains(other))
                .map(PackageMapTest::pattern)
                .toArray(String[]::new);
        assertThat(MAIN.stream().anyMatch(c -> c.getPackageName().startsWith("io.timeservice." + name)))
                .as("package %s has classes", name).isTrue();

        noClasses().that().resideInAPackage(pattern(name))
                .should().dependOnClassesThat().resideInAnyPackage(forbidden)
                .because("the README's package map lets " + name + " import only " + MAY_IMPORT.get(name))
                .check(MAIN);
    }

    /** Every package of the application is under exactly one row, so no new package escapes the map. */
    @Test
    void eachPackage_isUnderExactlyOneRow() {
        List<String> unmapped = MAIN.stream()
                .map(c -> c.getPackageName())
                .filter(pkg -> pkg.startsWith("io.timeservice."))
                .distinct()
                .filter(pkg -> MAY_IMPORT.keySet().stream().filter(name -> covers(name, pkg)).count() != 1)
                .sorted()
                .toList();
        assertThat(unmapped).as("packages under no row or under several").isEmpty();
    }

    private static boolean covers(String name, String pkg) {
        String pattern = pattern(name);
        return pattern.endsWith("..") ? pkg.equals(pattern.substring(0, pattern.length() - 2))
                || pkg.startsWith(pattern.substring(0, pattern.length() - 1)) : pkg.equals(pattern);
    }

    /**
     * The same rule over the source's import lines, which also catch an import kept only for a javadoc link (the
     * class files above do not show those).
     */
    @Test
    void eachSourceFile_importsOnlyWhatThePackageMapAllows() throws IOException {
        Path root = Path.of("src/main/java");
        Pattern projectImport = Pattern.compile("^import (?:static )?io\\.timeservice\\.([a-z.]+)\\.[A-Z]",
                Pattern.MULTILINE);
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String own = rowOf(root.relativize(file.getParent()).toString().replace('/', '.')
                        .replaceFirst("^io\\.timeservice\\.?", ""));
                if (own == null) {
                    continue;
                }
                Matcher imported = projectImport.matcher(Files.readString(file));
                while (imported.find()) {
                    String target = rowOf(imported.group(1));
                    if (target != null && !target.equals(own) && !MAY_IMPORT.get(own).contains(target)) {
                        violations.add(root.relativize(file) + " imports " + imported.group(1));
                    }
                }
            }
        }
        assertThat(violations).as("imports the package map does not allow").isEmpty();
    }

    /** The package map's row for a package: its own name, or the row of the nearest package above it that has one. */
    private static String rowOf(String pkg) {
        String name = pkg;
        while (!MAY_IMPORT.containsKey(name) && name.contains(".")) {
            name = name.substring(0, name.lastIndexOf('.'));
        }
        return MAY_IMPORT.containsKey(name) ? name : null;
    }
}
