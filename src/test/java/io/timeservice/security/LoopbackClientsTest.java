package io.timeservice.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class LoopbackClientsTest {

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.5.6.7", "127.255.255.255", "127.0.0.0", "::1", "0:0:0:0:0:0:0:1",
            "0000:0000:0000:0000:0000:0000:0000:0001", "::ffff:127.0.0.1"})
    void loopbackLiterals_areLoopback(String address) {
        assertThat(LoopbackClients.isLoopback(address)).isTrue();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"203.0.113.7", "10.0.0.1", "192.168.1.1", "0.0.0.0", "128.0.0.1", "126.255.255.255",
            "127.0.0.256", "127.0.0", "127.1", "0127.0.0.1", "127.0.0.1.", " 127.0.0.1", "127.0.0.1, 10.0.0.1",
            "::", "::2", "fe80::1", "::ffff:10.0.0.1", "2001:db8::1", "[::1]", "::1]", "localhost",
            "127.0.0.1.nip.io", "localhost6", "ab:cd:zz"})
    void everythingElse_isNot_andNoNameIsEverResolved(String address) {
        assertThat(LoopbackClients.isLoopback(address)).isFalse();
    }
}
