package io.timeservice.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SSRF guard: which addresses a push target may have. Address literals only (no DNS but the JDK's for
 * {@code localhost}, which resolves on the machine itself).
 */
class PushTargetPolicyTest {

    private static final PushTargetPolicy STRICT = new PushTargetPolicy(false, List.of(), InetAddress::getAllByName);

    private static PushTarget target(String url) {
        return new PushTarget(url, 1_000, 1, Map.of(), List.of());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "127.0.0.1", "127.255.255.254", // loopback
        "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", // private
        "169.254.169.254", "169.254.0.1", // link-local, the cloud metadata address
        "100.64.0.1", "100.127.255.255", // shared (CGNAT)
        "0.0.0.0", "0.1.2.3", // unspecified, this network
        "224.0.0.1", "239.255.255.255", "240.0.0.1", "255.255.255.255", // multicast, reserved, broadcast
        "192.0.0.8", "198.18.0.1", // IETF protocol assignments, benchmarking
        "::1", "::", // IPv6 loopback, unspecified
        "fe80::1", "febf::1", // link-local
        "fc00::1", "fd12:3456::1", // unique-local
        "fec0::1", // site-local
        "ff02::1", // multicast
        "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254", // IPv4-mapped
        "::127.0.0.1", "::10.0.0.1", // IPv4-compatible
        "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", // NAT64 of loopback and metadata
        "2002:7f00:1::1", "2002:a9fe:a9fe::1", // 6to4 of loopback and metadata
        // issue 41 item 11: the rest of the IANA special-purpose registries
        "192.0.2.1", "198.51.100.7", "203.0.113.9", // documentation
        "192.88.99.1", // deprecated 6to4 relay anycast
        "::ffff:0:7f00:1", "::ffff:0:808:808", // IPv4-translated
        "100::1", "100::ffff:ffff:ffff:ffff", // discard-only
        "2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
        "2001:2::1", "2001:1ff::1", // benchmarking, the rest of the IETF protocol assignments
        "2001:db8::1", "2001:db8:ffff::1", "3fff::1", // documentation
        "64:ff9b:1::808:808", // local-use NAT64
        "5f00::1", // SRv6 SIDs
        "4000::1", "1::1", "e000::1" // outside global unicast 2000::/3
    })
    void anAddressThatIsNotPublic_isRefusedAtPut(String address) {
        String host = address.contains(":") ? "[" + address + "]" : address;
        assertThatThrownBy(() -> STRICT.requireAllowed(target("http://" + host + ":8080/hook")))
                .isInstanceOfSatisfying(ProblemException.class,
                        refused -> assertThat(refused.code()).isEqualTo(ErrorCode.TARGET_NOT_ALLOWED));
    }

    /** The refusal names the block of the registry and its RFC. */
    @Test
    void aRefusal_namesTheBlockAndItsRfc() {
        assertThatThrownBy(() -> STRICT.requireAllowed(target("http://[2001:db8::1]/hook")))
                .hasMessageContaining("documentation (2001:db8::/32, RFC 3849)");
        assertThatThrownBy(() -> STRICT.requireAllowed(target("http://[2002:a9fe:a9fe::1]/hook")))
                .hasMessageContaining("link local (the cloud metadata address 169.254.169.254) (169.254.0.0/16");
    }

    /** The table: every row parses, the most specific rows come before the blocks holding them. */
    @Test
    void theTable_ordersEveryRowBeforeTheBlocksHoldingIt() {
        java.util.List<SpecialAddresses.Row> table = SpecialAddresses.TABLE;
        for (int i = 0; i < table.size(); i++) {
            for (int j = i + 1; j < table.size(); j++) {
                SpecialAddresses.Cidr earlier = table.get(i).range();
                SpecialAddresses.Cidr later = table.get(j).range();
                boolean laterInsideEarlier = earlier.contains(later.prefix()) && later.bits() > earlier.bits();
                assertThat(laterInsideEarlier).as(later + " is shadowed by " + earlier).isFalse();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "100.63.255.255", "100.128.0.1", "172.15.0.1", "172.32.0.1",
        "192.169.0.1", "169.253.0.1", "2606:2800:220:1:248:1893:25c8:1946", "2001:4860:4860::8888",
        "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2001:200::1", "2600::1", "3ffe::1"})
    void aPublicAddress_isAllowed(String address) throws UnknownHostException {
        assertThat(PushTargetPolicy.isPublic(InetAddress.getByName(address))).isTrue();
        String host = address.contains(":") ? "[" + address + "]" : address;
        STRICT.requireAllowed(target("https://" + host + "/hook"));
    }

    @Test
    void aHostNameResolvingToLoopback_isRefused() {
        assertThatThrownBy(() -> STRICT.requireAllowed(target("http://localhost:8080/")))
                .isInstanceOfSatisfying(ProblemException.class,
                        refused -> assertThat(refused.code()).isEqualTo(ErrorCode.TARGET_NOT_ALLOWED));
    }

    @Test
    void aHostNameWithOnePrivateAddressAmongPublicOnes_isRefused() throws UnknownHostException {
        InetAddress[] mixed = {InetAddress.getByName("8.8.8.8"), InetAddress.getByName("10.0.0.5")};
        PushTargetPolicy policy = new PushTargetPolicy(false, List.of(), host -> mixed);
        assertThat(policy.allows("mixed.example", mixed)).isFalse();
        assertThatThrownBy(() -> policy.requireAllowed(target("https://mixed.example/")))
                .isInstanceOf(ProblemException.class);
    }

    @Test
    void aHostThatDoesNotResolve_isRefused() {
        PushTargetPolicy policy = new PushTargetPolicy(false, List.of(), host -> {
            throw new UnknownHostException(host);
        });
        assertThatThrownBy(() -> policy.requireAllowed(target("https://nowhere.example/")))
                .isInstanceOfSatisfying(ProblemException.class,
                        refused -> assertThat(refused.getMessage()).contains("does not resolve"));
    }

    @Test
    void allowedHosts_allowANameWhateverItResolvesTo_andAddressesInACidrRange() throws UnknownHostException {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        InetAddress internal = InetAddress.getByName("10.1.2.3");
        PushTargetPolicy policy = new PushTargetPolicy(false, List.of("Hooks.Internal", "10.1.0.0/16", "fd00::/8"),
                host -> new InetAddress[] {host.equalsIgnoreCase("hooks.internal") ? loopback : internal});
        policy.requireAllowed(target("http://hooks.internal/"));
        policy.requireAllowed(target("http://10.1.2.3/"));
        assertThat(policy.allows("x", new InetAddress[] {InetAddress.getByName("10.2.0.1")})).isFalse();
        assertThat(policy.allows("x", new InetAddress[] {InetAddress.getByName("fd00::5")})).isTrue();
        assertThat(policy.allows("x", new InetAddress[] {InetAddress.getByName("fc00::5")})).isFalse();
    }

    @Test
    void allowPrivate_allowsEveryAddress() throws UnknownHostException {
        PushTargetPolicy open = new PushTargetPolicy(true, List.of(), InetAddress::getAllByName);
        open.requireAllowed(target("http://127.0.0.1:9/"));
        assertThat(open.allows("x", new InetAddress[] {InetAddress.getByName("169.254.169.254")})).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.0/33", "not-an-address/8", "10.0.0.0/x"})
    void aBadCidr_isRefusedWhenThePolicyIsMade(String entry) {
        assertThatThrownBy(() -> new PushTargetPolicy(false, List.of(entry), InetAddress::getAllByName))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
