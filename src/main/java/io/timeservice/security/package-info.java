/**
 * Bearer tokens with read and write scopes, protected mode (loopback callers only while no token is configured), and
 * problem+json answers for refused requests. Imports {@code web}, {@code model} and {@code config}.
 */
package io.timeservice.security;
