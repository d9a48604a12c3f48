package io.timeservice.store.memory.heap;


/**
 * Told each step of an {@link IndexedTimerHeap} operation as it happens, so that a trace shows the very algorithm
 * that runs untraced. {@link #NONE} ignores everything; while it is the only listener a call site has seen, the JIT
 * inlines its empty methods away, so an untraced operation pays nothing for the calls.
 *
 * <p>Called from inside the operation: the heap is mid-change, and a listener may only read it.
 */
public interface HeapListener {

    HeapListener NONE = new HeapListener() {
    };

    /** {@code handle} leaves slot {@code slot} for good (cancelled or fired). */
    default void removed(int handle, int slot) {
    }

    /** {@code handle} is taken out of slot {@code slot} to be sifted; its cell is now the hole. */
    default void lifted(int handle, int slot) {
    }

    /**
     * The sifting {@code handle} (with the keys {@code fireTime} and {@code priority}), over the hole at
     * {@code hole}, was compared with the timer in {@code otherSlot}; {@code precedes} says whether it fires first.
     */
    default void compared(int handle, int hole, long fireTime, int priority, int otherSlot, boolean precedes) {
    }

    /** {@code handle} is about to be written into slot {@code slot}; its recorded slot is still the old one. */
    default void writing(int handle, int slot) {
    }
}
