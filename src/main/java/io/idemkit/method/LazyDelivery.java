package io.idemkit.method;

import java.util.function.Supplier;

/**
 * A transport's {@link ListenerDelivery}, made at its first message, so that a runtime without the
 * transport's API never loads the class that uses it. Thread-safe.
 */
public final class LazyDelivery {

    private final Supplier<ListenerDelivery> maker;
    private volatile ListenerDelivery made;

    /**
     * @param maker makes the delivery, once
     */
    public LazyDelivery(Supplier<ListenerDelivery> maker) {
        this.maker = maker;
    }

    /**
     * @return the delivery, made now if it was not yet
     */
    public ListenerDelivery get() {
        ListenerDelivery delivery = made;
        if (delivery == null) {
            synchronized (this) {
                delivery = made;
                if (delivery == null) {
                    delivery = maker.get();
                    made = delivery;
                }
            }
        }
        return delivery;
    }
}
