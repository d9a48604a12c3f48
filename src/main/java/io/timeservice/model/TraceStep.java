package io.timeservice.model;


/**
 * One step of a heap operation, recorded by the heap's single write helper while it runs (never reconstructed).
 *
 * <p>Replaying the steps in order against the array as it was before the operation reproduces the array after it:
 * <ul>
 *   <li>{@code remove}: {@code id} leaves slot {@code from} for good (cancelled, fired).</li>
 *   <li>{@code lift}: {@code id} leaves slot {@code from} to be sifted; its cell is now the hole.</li>
 *   <li>{@code compare}: the sifting {@code id} was compared with {@code otherId} in slot {@code to};
 *       {@code precedes} says whether {@code id} fires first, {@code decidedBy} which key decided.</li>
 *   <li>{@code move}: {@code id} moves from slot {@code from} into the hole at slot {@code to}.</li>
 *   <li>{@code place}: the sifting (or new) {@code id} is written into slot {@code to}.</li>
 * </ul>
 * Unused slot fields are -1; unused text fields are {@code null}.
 */
public record TraceStep(String op, String id, int from, int to, String otherId, Boolean precedes, String decidedBy) {

    public static TraceStep remove(String id, int from) {
        return new TraceStep("remove", id, from, -1, null, null, null);
    }

    public static TraceStep lift(String id, int from) {
        return new TraceStep("lift", id, from, -1, null, null, null);
    }

    public static TraceStep compare(String id, int holeSlot, String otherId, int otherSlot, boolean precedes,
                             String decidedBy) {
        return new TraceStep("compare", id, holeSlot, otherSlot, otherId, precedes, decidedBy);
    }

    public static TraceStep move(String id, int from, int to) {
        return new TraceStep("move", id, from, to, null, null, null);
    }

    public static TraceStep place(String id, int to) {
        return new TraceStep("place", id, -1, to, null, null, null);
    }
}
