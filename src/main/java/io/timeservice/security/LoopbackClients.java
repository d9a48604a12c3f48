package io.timeservice.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Whether a request comes from the service's own machine: its client address is in 127.0.0.0/8 or is ::1 (also
 * written {@code 0:0:0:0:0:0:0:1}, or {@code ::ffff:127.x.y.z} on a dual-stack socket).
 *
 * <p>The address is {@link HttpServletRequest#getRemoteAddr()}: the socket's peer, unless the operator enabled
 * forwarded-header handling ({@code server.forward-headers-strategy}), which rewrites it. Only IP literals count and
 * none is ever resolved: a name such as {@code localhost}, which a forwarded header could carry, is not loopback,
 * and no DNS lookup is made on a client's say-so.
 */
final class LoopbackClients {

    private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
    private static final Pattern IPV4_LOOPBACK = Pattern.compile("127(\\." + OCTET + "){3}");

    private LoopbackClients() {
    }

    static boolean isLoopback(HttpServletRequest request) {
        return isLoopback(request.getRemoteAddr());
    }

    static boolean isLoopback(String address) {
        if (address == null) {
            return false;
        }
        if (address.equals("127.0.0.1")) {
            return true; // the usual case, without the pattern
        }
        if (address.indexOf(':') < 0) {
            return IPV4_LOOPBACK.matcher(address).matches();
        }
        try {
            // In brackets, InetAddress accepts only an IPv6 literal and never falls back to a name lookup.
            return InetAddress.getByName("[" + address + "]").isLoopbackAddress();
        } catch (UnknownHostException notAnIpv6Literal) {
            return false;
        }
    }
}
