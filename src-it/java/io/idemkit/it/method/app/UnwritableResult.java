package io.idemkit.it.method.app;

/** A result JSON-B cannot write: its only property throws. */
public class UnwritableResult {

    /**
     * @return never
     */
    public String getValue() {
        throw new IllegalStateException("not serializable");
    }
}
