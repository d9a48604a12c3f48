package io.timeservice.push;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * The addresses a push target may not have, as one table: the IANA IPv4 and IPv6 Special-Purpose Address Registries
 * (every block not globally reachable, or reachable only within a protocol), multicast, and on IPv6 everything outside
 * global unicast {@code 2000::/3} (the IANA IPv6 Address Space registry: the rest is reserved by the IETF). Four IPv6
 * forms carry an IPv4 address, which is judged in their place. A block of the registry that IANA marks globally
 * reachable is refused all the same when it sits inside a refused block (the anycast addresses of 192.0.0.0/24 and
 * 2001::/23: no webhook receiver lives there). docs/PUSH.md shows this table.
 *
 * <p>The first row containing an address decides, so more specific rows come first. Immutable; the table is read
 * once per address, 40 rows at most.
 */
final class SpecialAddresses {

    /** What a row means for an address in it. */
    enum Verdict {
        /** Never a target. */
        REFUSED,
        /** A public unicast address. */
        PUBLIC,
        /** Carries an IPv4 address (at {@link Row#ipv4At}), which decides. */
        EMBEDS_IPV4
    }

    /** One block: its range, its name in the registry, the RFC that defines it, and what it means for a target. */
    record Row(Cidr range, String name, String rfc, Verdict verdict, int ipv4At) {

        @Override
        public String toString() {
            return name + " (" + range + ", " + rfc + ")";
        }
    }

    static final List<Row> TABLE = List.of(
            // IPv4 Special-Purpose Address Registry
            refused("0.0.0.0/8", "\"this network\"", "RFC 791"),
            refused("10.0.0.0/8", "private use", "RFC 1918"),
            refused("100.64.0.0/10", "shared address space (CGNAT)", "RFC 6598"),
            refused("127.0.0.0/8", "loopback", "RFC 1122"),
            refused("169.254.0.0/16", "link local (the cloud metadata address 169.254.169.254)", "RFC 3927"),
            refused("172.16.0.0/12", "private use", "RFC 1918"),
            refused("192.0.0.0/24", "IETF protocol assignments", "RFC 6890"),
            refused("192.0.2.0/24", "documentation (TEST-NET-1)", "RFC 5737"),
            refused("192.88.99.0/24", "deprecated 6to4 relay anycast", "RFC 7526"),
            refused("192.168.0.0/16", "private use", "RFC 1918"),
            refused("198.18.0.0/15", "benchmarking", "RFC 2544"),
            refused("198.51.100.0/24", "documentation (TEST-NET-2)", "RFC 5737"),
            refused("203.0.113.0/24", "documentation (TEST-NET-3)", "RFC 5737"),
            refused("224.0.0.0/4", "multicast", "RFC 5771"),
            refused("240.0.0.0/4", "reserved, and limited broadcast 255.255.255.255", "RFC 1112, RFC 919"),
            row("0.0.0.0/0", "public", "RFC 791", Verdict.PUBLIC, 0),
            // IPv6 Special-Purpose Address Registry
            refused("::/128", "unspecified", "RFC 4291"),
            refused("::1/128", "loopback", "RFC 4291"),
            row("::ffff:0:0/96", "IPv4-mapped", "RFC 4291", Verdict.EMBEDS_IPV4, 12),
            row("::/96", "IPv4-compatible (deprecated)", "RFC 4291", Verdict.EMBEDS_IPV4, 12),
            refused("::ffff:0:0:0/96", "IPv4-translated", "RFC 2765"),
            row("64:ff9b::/96", "IPv4-IPv6 translation (NAT64)", "RFC 6052", Verdict.EMBEDS_IPV4, 12),
            refused("64:ff9b:1::/48", "local-use IPv4-IPv6 translation", "RFC 8215"),
            refused("100::/64", "discard-only", "RFC 6666"),
            refused("100:0:0:1::/64", "dummy IPv6 prefix", "RFC 9780"),
            refused("2001::/23", "IETF protocol assignments (Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID)",
                    "RFC 2928, RFC 4380"),
            refused("2001:db8::/32", "documentation", "RFC 3849"),
            row("2002::/16", "6to4", "RFC 3056", Verdict.EMBEDS_IPV4, 2),
            refused("3fff::/20", "documentation", "RFC 9637"),
            refused("5f00::/16", "segment routing (SRv6) SIDs", "RFC 9602"),
            refused("fc00::/7", "unique local", "RFC 4193"),
            refused("fe80::/10", "link-local unicast", "RFC 4291"),
            refused("fec0::/10", "site-local (deprecated)", "RFC 3879"),
            refused("ff00::/8", "multicast", "RFC 4291"),
            row("2000::/3", "global unicast", "RFC 4291", Verdict.PUBLIC, 0),
            refused("::/0", "not global unicast (reserved by the IETF)", "RFC 4291"));

    private SpecialAddresses() {
    }

    /** The row that decides {@code address}, looking through an IPv6 form to the IPv4 address it carries. */
    static Row of(InetAddress address) {
        Row row = first(address.getAddress());
        if (row.verdict() != Verdict.EMBEDS_IPV4) {
            return row;
        }
        byte[] ipv4 = java.util.Arrays.copyOfRange(address.getAddress(), row.ipv4At(), row.ipv4At() + 4);
        Row carried = first(ipv4);
        return carried.verdict() == Verdict.PUBLIC ? row : carried;
    }

    private static Row first(byte[] address) {
        for (Row row : TABLE) {
            if (row.range().contains(address)) {
                return row;
            }
        }
        throw new IllegalStateException("the table ends with a row for every address");
    }

    private static Row refused(String range, String name, String rfc) {
        return row(range, name, rfc, Verdict.REFUSED, 0);
    }

    private static Row row(String range, String name, String rfc, Verdict verdict, int ipv4At) {
        return new Row(Cidr.parse(range), name, rfc, verdict, ipv4At);
    }

    /** An address range: a prefix of {@code bits} bits. */
    record Cidr(byte[] prefix, int bits, String text) {

        /**
         * @throws IllegalArgumentException for anything but an address literal, a slash and a prefix length that fits
         */
        static Cidr parse(String text) {
            int slash = text.indexOf('/');
            String address = slash < 0 ? "" : text.substring(0, slash);
            if (!address.matches("[0-9a-fA-F:.]+")) { // a literal only: never a DNS lookup here
                throw new IllegalArgumentException("not a CIDR range: " + text);
            }
            try {
                // an IPv4-mapped literal parses as IPv4: the registry's ::ffff:0:0/96 is kept as IPv6 bytes
                byte[] prefix = InetAddress.getByName(address).getAddress();
                if (address.contains(":") && prefix.length == 4) {
                    byte[] mapped = new byte[16];
                    mapped[10] = (byte) 0xff;
                    mapped[11] = (byte) 0xff;
                    System.arraycopy(prefix, 0, mapped, 12, 4);
                    prefix = mapped;
                }
                int bits = Integer.parseInt(text.substring(slash + 1));
                if (bits < 0 || bits > prefix.length * 8) {
                    throw new IllegalArgumentException("a prefix of " + bits + " bits in " + text);
                }
                return new Cidr(prefix, bits, text);
            } catch (UnknownHostException | NumberFormatException bad) {
                throw new IllegalArgumentException("not a CIDR range: " + text.toLowerCase(java.util.Locale.ROOT),
                        bad);
            }
        }

        boolean contains(InetAddress address) {
            return contains(address.getAddress());
        }

        boolean contains(byte[] address) {
            if (address.length != prefix.length) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((address[bit / 8] & mask) != (prefix[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
