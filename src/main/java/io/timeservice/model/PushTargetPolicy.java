package io.timeservice.model;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which push targets the service may reach: the guard against server-side request forgery (a client making the
 * service POST to its own network). By default only public addresses: a target whose host is, or resolves to, a
 * loopback, private (RFC 1918), shared (CGNAT, RFC 6598), link-local (169.254.169.254, the cloud metadata address,
 * among them), unique-local, site-local, multicast, reserved, broadcast or unspecified address is refused, also when
 * that address hides inside an IPv6 one (IPv4-mapped, IPv4-compatible, NAT64, 6to4). A host name resolving to several
 * addresses is refused when any of them is: an attacker's DNS may mix one good address among bad ones.
 *
 * <p>{@code allowedHosts} widens it: a host name (compared without case) whose addresses are all allowed, or a CIDR
 * range ({@code 10.1.0.0/16}, {@code fd00::/8}) of allowed addresses. {@code allowPrivate} allows every address.
 *
 * <p>The same policy judges a target twice: when a clock is created ({@link #requireAllowed}, which resolves the
 * host) and at every connection, on the addresses the connection is about to use ({@link #allows}): DNS may answer
 * differently by then. Thread-safe and immutable.
 */
public final class PushTargetPolicy {

    /** Resolves a host name (or parses an address literal) to its addresses. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** Public addresses only, resolved by the JDK. */
    public static final PushTargetPolicy PUBLIC_ONLY = new PushTargetPolicy(false, List.of(), InetAddress::getAllByName);

    private final boolean allowPrivate;
    private final Set<String> hosts = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    private final List<Cidr> ranges = new ArrayList<>();
    private final Resolver resolver;

    /**
     * @throws IllegalArgumentException for an entry of {@code allowedHosts} that is neither a host name nor a CIDR
     */
    public PushTargetPolicy(boolean allowPrivate, List<String> allowedHosts, Resolver resolver) {
        this.allowPrivate = allowPrivate;
        this.resolver = resolver;
        for (String entry : allowedHosts) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.contains("/")) {
                ranges.add(Cidr.parse(trimmed));
            } else {
                hosts.add(trimmed);
            }
        }
    }

    public boolean allowsPrivate() {
        return allowPrivate;
    }

    public Resolver resolver() {
        return resolver;
    }

    /**
     * Refuses a target whose host does not resolve or resolves to an address this policy does not allow; resolves on
     * the caller's thread.
     *
     * @throws SchedulerException {@code target_not_allowed}
     */
    public void requireAllowed(PushTarget target) {
        String host = target.host();
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException unknown) {
            throw new SchedulerException(ErrorCode.TARGET_NOT_ALLOWED, "push.url's host " + Rules.abbreviate(host)
                    + " does not resolve");
        }
        String refused = refusal(host, addresses);
        if (refused != null) {
            throw new SchedulerException(ErrorCode.TARGET_NOT_ALLOWED, refused);
        }
    }

    /** Whether a connection to {@code host} may use {@code addresses}: all of them allowed, and at least one. */
    public boolean allows(String host, InetAddress[] addresses) {
        return refusal(host, addresses) == null;
    }

    private String refusal(String host, InetAddress[] addresses) {
        if (addresses.length == 0) {
            return "push.url's host " + Rules.abbreviate(host) + " has no address";
        }
        if (allowPrivate || hosts.contains(host)) {
            return null;
        }
        for (InetAddress address : addresses) {
            if (!isPublic(address) && ranges.stream().noneMatch(range -> range.contains(address))) {
                return "push.url's host " + Rules.abbreviate(host) + " is or resolves to " + address.getHostAddress()
                        + ", an address the service may not reach (loopback, private, link-local, unique-local,"
                        + " multicast, reserved or unspecified); timeservice.push.allowed-hosts can allow it";
            }
        }
        return null;
    }

    /** Whether {@code address} is a public unicast address, looking through IPv6 forms that embed an IPv4 one. */
    public static boolean isPublic(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return isPublicIpv4(b, 0);
        }
        if (!(address instanceof Inet6Address)) {
            return false;
        }
        boolean zeroTo80 = true;
        for (int i = 0; i < 10; i++) {
            zeroTo80 &= b[i] == 0;
        }
        if (zeroTo80 && ((b[10] == (byte) 0xff && b[11] == (byte) 0xff) || (b[10] == 0 && b[11] == 0))) {
            // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible; :: and ::1 land here as 0.0.0.0 and 0.0.0.1)
            return isPublicIpv4(b, 12);
        }
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        if (first == 0x00 && second == 0x64 && b[2] == (byte) 0xff && b[3] == (byte) 0x9b) { // 64:ff9b::/96 NAT64
            return isPublicIpv4(b, 12);
        }
        if (first == 0x20 && second == 0x02) { // 2002::/16 6to4: the IPv4 address follows
            return isPublicIpv4(b, 2);
        }
        return !(first == 0xff // multicast ff00::/8
                || (first & 0xfe) == 0xfc // unique-local fc00::/7
                || (first == 0xfe && (second & 0xc0) == 0x80) // link-local fe80::/10
                || (first == 0xfe && (second & 0xc0) == 0xc0)); // site-local fec0::/10 (deprecated)
    }

    private static boolean isPublicIpv4(byte[] b, int at) {
        int a = b[at] & 0xff;
        int c = b[at + 1] & 0xff;
        return !(a == 0 // unspecified, "this network"
                || a == 10 // private
                || a == 127 // loopback
                || (a == 100 && (c & 0xc0) == 64) // shared address space (CGNAT) 100.64/10
                || (a == 169 && c == 254) // link-local, cloud metadata
                || (a == 172 && (c & 0xf0) == 16) // private 172.16/12
                || (a == 192 && c == 168) // private
                || (a == 192 && c == 0 && (b[at + 2] & 0xff) == 0) // IETF protocol assignments 192.0.0/24
                || (a == 198 && (c & 0xfe) == 18) // benchmarking 198.18/15
                || a >= 224); // multicast 224/4, reserved 240/4, broadcast
    }

    /** An address range: a prefix of {@code bits} bits. */
    private record Cidr(byte[] prefix, int bits) {

        static Cidr parse(String text) {
            int slash = text.indexOf('/');
            String address = text.substring(0, slash);
            if (!address.matches("[0-9a-fA-F:.]+")) { // a literal only: never a DNS lookup here
                throw new IllegalArgumentException("not a CIDR range: " + text);
            }
            try {
                byte[] prefix = InetAddress.getByName(address).getAddress();
                int bits = Integer.parseInt(text.substring(slash + 1));
                if (bits < 0 || bits > prefix.length * 8) {
                    throw new IllegalArgumentException("a prefix of " + bits + " bits in " + text);
                }
                return new Cidr(prefix, bits);
            } catch (UnknownHostException | NumberFormatException bad) {
                throw new IllegalArgumentException("not a CIDR range: " + text.toLowerCase(Locale.ROOT), bad);
            }
        }

        boolean contains(InetAddress address) {
            byte[] a = address.getAddress();
            if (a.length != prefix.length) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((a[bit / 8] & mask) != (prefix[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}
