/**
 * The store ports ({@link io.timeservice.store.TimerStore}, {@link io.timeservice.store.DeliveryStore},
 * {@link io.timeservice.store.ClockStore}, {@link io.timeservice.store.QueueInspector}), each call's contract
 * documented there, and what is store-neutral: the metrics port {@link io.timeservice.store.StoreMetrics} and the
 * {@code Measured*} decorators that time and count any store's calls. Imports {@code model} only; the two stores live
 * in the sub-packages {@code memory} and {@code postgres}, which never import each other.
 */
package io.timeservice.store;
