package io.timeservice.push;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hc.client5.http.DnsResolver;

/**
 * The push client's DNS: resolves as the policy's resolver does and refuses a host with any address the policy does
 * not allow. The client connects only to addresses this answered, so a target whose DNS changed since its clock was
 * created (DNS rebinding) cannot reach a private address: the check and the connection use the same lookup.
 */
final class GuardedDnsResolver implements DnsResolver {

    /** A connection refused by the policy: the attempt ends as {@code refused}, not as a connection error. */
    static final class TargetRefusedException extends UnknownHostException {
        TargetRefusedException(String message) {
            super(message);
        }
    }

    private final PushTargetPolicy policy;

    GuardedDnsResolver(PushTargetPolicy policy) {
        this.policy = policy;
    }

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        InetAddress[] addresses = policy.resolver().resolve(bare);
        if (!policy.allows(bare, addresses)) {
            throw new TargetRefusedException("the push target " + bare + " resolves to an address the service may"
                    + " not reach");
        }
        return addresses;
    }

    @Override
    public List<InetSocketAddress> resolve(String host, int port) throws UnknownHostException {
        List<InetSocketAddress> endpoints = new ArrayList<>();
        for (InetAddress address : resolve(host)) {
            endpoints.add(new InetSocketAddress(address, port));
        }
        return endpoints;
    }

    @Override
    public String resolveCanonicalHostname(String host) throws UnknownHostException {
        return host; // never used to pick an address: the canonical name is not looked up
    }
}
