package io.timeservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

class ExecutablesTest {

    @Test
    void find_programOnPath_returnsIt() {
        Path sh = Executables.find("EXECUTABLES_TEST_UNSET_VARIABLE", "a shell", "no-such-program-1b7f", "sh");

        assertThat(sh.getFileName()).hasToString("sh");
    }

    @Test
    void find_missingProgram_failsNamingTheTestCommand() {
        assertThatThrownBy(() -> Executables.find("EXECUTABLES_TEST_UNSET_VARIABLE",
                "the browser tests need Chromium", "no-such-program-1b7f"))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("no-such-program-1b7f is not on PATH")
                .hasMessageContaining("the browser tests need Chromium")
                .hasMessageContaining("Run ./test");
    }
}
