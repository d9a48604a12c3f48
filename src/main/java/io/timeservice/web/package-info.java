/**
 * The HTTP API: package-private controllers, JSON records bound strictly (no coercion, no unknown or duplicate
 * members), the one catalogue of problem types ({@code ProblemType}) and its renderer, and the HTTP-layer pieces
 * around Tomcat (error valve, single-write responses, body limits). Reaches the stores only through the ports in
 * {@code store}; imports {@code model}, {@code store} and {@code config}.
 */
package io.timeservice.web;
