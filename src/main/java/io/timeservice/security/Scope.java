package io.timeservice.security;

import java.util.List;

import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** What a bearer token allows: {@code read} the queue, or {@code write} it (which includes reading). */
enum Scope {
    READ,
    WRITE;

    static final String READ_AUTHORITY = "SCOPE_read";
    static final String WRITE_AUTHORITY = "SCOPE_write";

    /** The authorities this scope grants: write implies read. */
    List<GrantedAuthority> authorities() {
        return this == WRITE
                ? List.of(new SimpleGrantedAuthority(READ_AUTHORITY), new SimpleGrantedAuthority(WRITE_AUTHORITY))
                : List.of(new SimpleGrantedAuthority(READ_AUTHORITY));
    }

    /** The wire name, as in {@code WWW-Authenticate: Bearer error="insufficient_scope", scope="write"}. */
    String wireName() {
        return this == WRITE ? "write" : "read";
    }
}
