package io.timeservice.web;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With the default policy (no private targets), a push target that is, or resolves to, an address the service may
 * not reach is 400 {@code target_not_allowed} at {@code PUT}, and nothing is created.
 */
class PushTargetRefusalRestTest extends RestTestSupport {

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:8080/", "http://localhost/", "http://10.0.0.1/", "http://172.16.5.4/",
        "http://192.168.0.10/", "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/", "http://0.0.0.0/",
        "http://224.0.0.1/", "http://[::1]/", "http://[fe80::1]/", "http://[fd00::1]/", "http://[ff02::1]/",
        "http://[::ffff:127.0.0.1]/", "http://[::ffff:169.254.169.254]/", "http://[::]/"})
    void aTargetThatIsNotPublic_isRefused_andNoClockIsMade(String url) {
        assertProblem(json("{\"mode\":\"system\",\"push\":{\"url\":\"" + url + "\"}}").put("/clocks/ssrf"), 400,
                "target_not_allowed");
        assertProblem(given().get("/clocks/ssrf"), 404, "clock_not_found");
    }
}
