package io.timeservice.model;

/**
 * A place in a clock's firing order ({@link FiringOrder}): a listing of pending timers pages on after the position
 * of the last one it showed. Written {@code fireTime,priority,sequence} (for example {@code 1000,-1,42}): the
 * {@code next} of one page is the {@code after} of the next one.
 */
public record FiringPosition(long fireTime, int priority, long sequence) {

    /** The position of {@code timer}. */
    public static FiringPosition of(Timer timer) {
        return new FiringPosition(timer.fireTime(), timer.priority(), timer.sequence());
    }

    /**
     * Reads {@code fireTime,priority,sequence}; null for null.
     *
     * @throws ProblemException {@code invalid_request} for anything else
     */
    public static FiringPosition parse(String text) {
        if (text == null) {
            return null;
        }
        String[] parts = text.split(",", -1);
        try {
            if (parts.length == 3) {
                return new FiringPosition(Long.parseLong(parts[0]), Integer.parseInt(parts[1]),
                        Long.parseLong(parts[2]));
            }
        } catch (NumberFormatException notNumbers) {
            // refused below
        }
        throw new ProblemException(ErrorCode.INVALID_REQUEST, "after must be fireTime,priority,sequence (the next"
                + " of a listing), got " + TimerRules.abbreviate(text));
    }

    /** Whether a timer with these keys comes after this position in firing order. */
    public boolean isBefore(long fireTime, int priority, long sequence) {
        return FiringOrder.compare(fireTime, priority, sequence, this.fireTime, this.priority, this.sequence) > 0;
    }

    @Override
    public String toString() {
        return fireTime + "," + priority + "," + sequence;
    }
}
