package io.timeservice.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;

/** The scheduling core is plain Java: no Spring, Micrometer, Jackson or Jakarta types anywhere in it. */
class CoreArchitectureTest {

    /**
     * Only the core's own class files, imported from the directory they were compiled to (naming the package
     * instead makes ArchUnit open every jar on the class path to look for it). Dependencies stay unresolved stubs:
     * their names are all a package rule needs.
     */
    private static final JavaClasses CORE = ArchConfiguration.withThreadLocalScope(configuration -> {
        configuration.setResolveMissingDependenciesFromClassPath(false);
        return new ClassFileImporter().importPath(compiledCorePackage());
    });

    private static Path compiledCorePackage() {
        try {
            Path classes = Path.of(TimerScheduler.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return classes.resolve(TimerScheduler.class.getPackageName().replace('.', '/'));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void coreClasses_areImported() {
        assertThat(CORE.contain(TimerScheduler.class)).isTrue();
        assertThat(CORE.contain(IndexedTimerHeap.class)).isTrue();
        assertThat(CORE.contain(IdIndex.class)).isTrue();
        assertThat(CORE.contain(CoreArchitectureTest.class)).as("test classes are not part of the rule").isFalse();
    }

    @Test
    void core_dependsOnNoFrameworkOrLibraryPackages() {
        ArchRule rule = noClasses().that().resideInAPackage("io.timeservice.core..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.springframework..", "io.micrometer..", "com.fasterxml..", "tools.jackson..",
                        "jakarta..")
                .because("the core is plain Java; metrics and web concerns sit behind interfaces outside it");

        rule.check(CORE);
    }
}
