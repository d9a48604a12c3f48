package io.timeservice.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

/** The scheduling core is plain Java: no Spring, Micrometer, Jackson or Jakarta types anywhere in it. */
class CoreArchitectureTest {

    /**
     * Only the core's own class files. Dependencies stay unresolved stubs (their names are all a package rule
     * needs), which keeps the import from walking the whole class path.
     */
    private static final JavaClasses CORE = ArchConfiguration.withThreadLocalScope(configuration -> {
        configuration.setResolveMissingDependenciesFromClassPath(false);
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.timeservice.core");
    });

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
