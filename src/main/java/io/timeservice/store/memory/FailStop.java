package io.timeservice.store.memory;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;

/**
 * Whether the scheduler still serves. It stops for good when the mutation log reports failure or when applying a
 * change that the journal has already recorded throws (memory may then differ from what recovery rebuilds); from
 * then on every call, reads included, is refused with {@code storage_unavailable}, and only a restart recovers.
 *
 * <p>Not thread-safe: the scheduler calls it only while holding its lock.
 */
final class FailStop {

    private static final System.Logger LOG = System.getLogger(TimerScheduler.class.getName());

    /** Why the scheduler stopped serving, or {@code null} while it serves; never cleared. */
    private String stoppedBecause;

    /** Refuses the call once stopped. Call first in every call under the lock. */
    void requireServing(MutationLog log) {
        noticeFailure(log);
        if (stoppedBecause != null) {
            throw new ProblemException(ErrorCode.STORAGE_UNAVAILABLE, "the service has stopped serving because "
                    + stoppedBecause + "; it answers nothing until it is restarted, and a change answered 503 may"
                    + " or may not be there after the restart");
        }
    }

    /** Why the scheduler stopped serving, or {@code null} while it serves. */
    String stoppedBecause(MutationLog log) {
        noticeFailure(log);
        return stoppedBecause;
    }

    /** Stops for good and returns what to tell the caller whose change failed. */
    ProblemException stop(String reason, Throwable cause) {
        if (stoppedBecause == null) {
            stoppedBecause = reason;
        }
        LOG.log(System.Logger.Level.ERROR, reason + "; the scheduler stops serving until restarted", cause);
        return new ProblemException(ErrorCode.STORAGE_UNAVAILABLE, "the service has stopped serving because "
                + reason + "; the outcome of this change is known only after a restart");
    }

    private void noticeFailure(MutationLog log) {
        if (stoppedBecause == null && log.failed()) {
            stoppedBecause = "the journal failed";
            LOG.log(System.Logger.Level.ERROR, "the journal failed; the scheduler stops serving until restarted");
        }
    }
}
