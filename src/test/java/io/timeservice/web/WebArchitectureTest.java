package io.timeservice.web;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.net.URISyntaxException;
import java.nio.file.Path;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** The web layer reports through the core's {@code SchedulerMetrics}, never through the Micrometer adapter. */
class WebArchitectureTest {

    @Test
    void web_doesNotDependOnTheMetricsAdapter() throws URISyntaxException {
        Path classes = Path.of(ProblemHandler.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        JavaClasses web = ArchConfiguration.withThreadLocalScope(configuration -> {
            configuration.setResolveMissingDependenciesFromClassPath(false);
            return new ClassFileImporter().importPath(
                    classes.resolve(ProblemHandler.class.getPackageName().replace('.', '/')));
        });

        noClasses().should().dependOnClassesThat().resideInAPackage("io.timeservice.metrics..")
                .because("metrics go through the core's SchedulerMetrics interface")
                .check(web);
    }
}
