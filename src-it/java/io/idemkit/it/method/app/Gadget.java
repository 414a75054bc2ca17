package io.idemkit.it.method.app;

import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A serializable class whose deserialization has a side effect, which it counts: what an attacker
 * with write access to the store would plant as a stored result, if a result codec ever read Java
 * serialization.
 */
public final class Gadget implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final AtomicInteger READS = new AtomicInteger();

    /**
     * @return how many times a gadget was deserialized in this application
     */
    static int reads() {
        return READS.get();
    }

    private void readObject(ObjectInputStream in) {
        READS.incrementAndGet();
    }
}
