package io.timeservice.push;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.PushTargetGuard;
import io.timeservice.model.TimerRules;
import io.timeservice.push.SpecialAddresses.Cidr;

/**
 * Which push targets the service may reach: the guard against server-side request forgery (a client making the
 * service POST to its own network). By default only public addresses: a target whose host is, or resolves to, an
 * address of the IANA special-purpose registries ({@link SpecialAddresses}: loopback, private, shared, link-local —
 * 169.254.169.254, the cloud metadata address, among them —, documentation, benchmarking, Teredo, discard-only,
 * unique-local, multicast, reserved, broadcast, unspecified, any IPv6 address outside global unicast) is refused, also
 * when that address hides inside an IPv6 one (IPv4-mapped, IPv4-compatible, NAT64, 6to4). A host name resolving to
 * several addresses is refused when any of them is: an attacker's DNS may mix one good address among bad ones.
 *
 * <p>{@code allowedHosts} widens it: a host name (compared without case) whose addresses are all allowed, or a CIDR
 * range ({@code 10.1.0.0/16}, {@code fd00::/8}) of allowed addresses. {@code allowPrivate} allows every address.
 *
 * <p>The same policy judges a target twice: when a clock is created ({@link #requireAllowed}, which resolves the
 * host) and at every connection, on the addresses the connection is about to use ({@link #allows}): DNS may answer
 * differently by then. Thread-safe and immutable.
 */
public final class PushTargetPolicy implements PushTargetGuard {

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

    public Resolver resolver() {
        return resolver;
    }

    /**
     * Refuses a target whose host does not resolve or resolves to an address this policy does not allow; resolves on
     * the caller's thread.
     *
     * @throws ProblemException {@code target_not_allowed}
     */
    @Override
    public void requireAllowed(PushTarget target) {
        String host = target.host();
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException unknown) {
            throw new ProblemException(ErrorCode.TARGET_NOT_ALLOWED, "push.url's host " + TimerRules.abbreviate(host)
                    + " does not resolve");
        }
        String refused = refusal(host, addresses);
        if (refused != null) {
            throw new ProblemException(ErrorCode.TARGET_NOT_ALLOWED, refused);
        }
    }

    /** Whether a connection to {@code host} may use {@code addresses}: all of them allowed, and at least one. */
    public boolean allows(String host, InetAddress[] addresses) {
        return refusal(host, addresses) == null;
    }

    private String refusal(String host, InetAddress[] addresses) {
        if (addresses.length == 0) {
            return "push.url's host " + TimerRules.abbreviate(host) + " has no address";
        }
        if (allowPrivate || hosts.contains(host)) {
            return null;
        }
        for (InetAddress address : addresses) {
            SpecialAddresses.Row row = SpecialAddresses.of(address);
            if (row.verdict() == SpecialAddresses.Verdict.REFUSED
                    && ranges.stream().noneMatch(range -> range.contains(address))) {
                return "push.url's host " + TimerRules.abbreviate(host) + " is or resolves to " + address.getHostAddress()
                        + ", " + row + ": an address the service may not reach; timeservice.push.allowed-hosts can"
                        + " allow it";
            }
        }
        return null;
    }

    /**
     * Whether {@code address} is a public unicast address, by the IANA registries' table ({@link SpecialAddresses}),
     * looking through IPv6 forms that embed an IPv4 one.
     */
    public static boolean isPublic(InetAddress address) {
        return SpecialAddresses.of(address).verdict() != SpecialAddresses.Verdict.REFUSED;
    }
}
