package io.timeservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.function.Executable;

/** The check every refusal test makes: the call throws the service's problem, with its status, code and words. */
final class Refusals {

    private Refusals() {
    }

    /** Asserts that {@code call} is refused with {@code status} and {@code code} in a whole RFC 9457 problem. */
    static TimeServiceException refused(int status, String code, Executable call) {
        TimeServiceException refused = assertThrows(TimeServiceException.class, call);
        assertEquals(status, refused.status(), refused::getMessage);
        assertEquals(code, refused.code(), refused::getMessage);
        assertEquals(status, refused.problem().status());
        assertEquals("urn:timeservice:problem:" + code, refused.problem().type());
        assertFalse(refused.problem().title().isBlank());
        assertFalse(refused.detail().isBlank());
        return refused;
    }
}
