package io.timeservice.model;

/**
 * Refuses a push target the service may not reach: the guard against server-side request forgery that a clock's
 * creation and a snapshot's load ask before the store, implemented by {@code io.timeservice.push.PushTargetPolicy}
 * (which also judges every connection) and wired by {@code config}.
 */
@FunctionalInterface
public interface PushTargetGuard {

    /**
     * Refuses a target whose host does not resolve or resolves to an address the service may not reach; may resolve
     * on the caller's thread.
     *
     * @throws ProblemException {@code target_not_allowed}
     */
    void requireAllowed(PushTarget target);
}
