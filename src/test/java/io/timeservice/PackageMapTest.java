package io.timeservice;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The README's package map, as a rule: each package imports only the project packages its row names (web, for
 * instance, reports through the core's {@code SchedulerMetrics}, never through the Micrometer adapter in metrics).
 */
class PackageMapTest {

    /** Package → the project packages it may import (besides itself); the README's "may import" column. */
    static final Map<String, Set<String>> MAY_IMPORT = new LinkedHashMap<>();

    static {
        MAY_IMPORT.put("core", Set.of());
        MAY_IMPORT.put("journal", Set.of("core"));
        MAY_IMPORT.put("web", Set.of("core", "config"));
        MAY_IMPORT.put("security", Set.of("web", "config"));
        MAY_IMPORT.put("metrics", Set.of("core", "journal", "store", "config"));
        MAY_IMPORT.put("store", Set.of("core"));
        MAY_IMPORT.put("config", Set.of("core", "journal", "web", "store"));
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

    static Set<String> packages() {
        return MAY_IMPORT.keySet();
    }

    @ParameterizedTest
    @MethodSource("packages")
    void eachPackage_importsOnlyWhatThePackageMapAllows(String name) {
        String[] forbidden = MAY_IMPORT.keySet().stream()
                .filter(other -> !other.equals(name) && !MAY_IMPORT.get(name).contains(other))
                .map(other -> "io.timeservice." + other + "..")
                .toArray(String[]::new);
        assertThat(MAIN.stream().anyMatch(c -> c.getPackageName().startsWith("io.timeservice." + name)))
                .as("package %s has classes", name).isTrue();

        noClasses().that().resideInAPackage("io.timeservice." + name + "..")
                .should().dependOnClassesThat().resideInAnyPackage(forbidden)
                .because("the README's package map lets " + name + " import only " + MAY_IMPORT.get(name))
                .check(MAIN);
    }
}
