package io.timeservice;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.timeservice.model.Timer;
import io.timeservice.store.TimerStore;
import io.timeservice.store.memory.MemoryClock;
import io.timeservice.store.postgres.PostgresStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The model, the store ports and both stores are plain Java: no Spring, Micrometer, Jackson or Jakarta types anywhere
 * in them (the PostgreSQL store speaks JDBC only). Spring wires them in {@code config}; metrics reach Micrometer
 * through the {@code StoreMetrics} port.
 */
class PlainJavaArchitectureTest {

    /**
     * The application's own class files only, imported from the directory they were compiled to (naming the package
     * instead makes ArchUnit open every jar on the class path). Dependencies stay unresolved stubs: their names are
     * all a package rule needs.
     */
    private static final JavaClasses MAIN = ArchConfiguration.withThreadLocalScope(configuration -> {
        configuration.setResolveMissingDependenciesFromClassPath(false);
        return new ClassFileImporter().importPath(compiledMainClasses());
    });

    private static Path compiledMainClasses() {
        try {
            return Path.of(Timer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"io.timeservice.model..", "io.timeservice.store..", "io.timeservice.store.memory..",
        "io.timeservice.store.postgres..", "io.timeservice.push.."})
    void package_dependsOnNoFrameworkOrLibraryPackages(String pattern) {
        noClasses().that().resideInAPackage(pattern)
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.springframework..", "io.micrometer..", "com.fasterxml..", "tools.jackson..",
                        "jakarta..")
                .because("the model and the stores are plain Java; web, metrics and wiring sit outside them")
                .check(MAIN);
    }

    @Test
    void theRulesSeeTheApplicationClassesOnly() {
        assertThat(MAIN.contain(Timer.class)).isTrue();
        assertThat(MAIN.contain(TimerStore.class)).isTrue();
        assertThat(MAIN.contain(MemoryClock.class)).isTrue();
        assertThat(MAIN.contain(PostgresStore.class)).isTrue();
        assertThat(MAIN.contain(PlainJavaArchitectureTest.class)).as("test classes are not part of the rule").isFalse();
    }
}
