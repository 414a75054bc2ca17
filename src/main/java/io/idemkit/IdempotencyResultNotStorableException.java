package io.idemkit;

import java.time.Duration;
import java.util.Objects;

/**
 * The operation ran, but its result cannot be stored for replay: the result codec could not
 * serialize it, or could not rebuild it as the method's declared return type, or it is larger than
 * {@code idemkit.max-body-bytes}. The side effect has happened. The claim is held until its lease
 * runs out, so that an immediate retry does not run it again; a retry before then is told that the
 * operation is in progress, and one after then runs it again. Fix the return type (or the codec),
 * or return less.
 */
public class IdempotencyResultNotStorableException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** How long the key stays claimed, so that an immediate retry does not run again. */
    private final Duration heldFor;

    /**
     * @param reason why the result cannot be stored, free of the result itself
     * @param heldFor how long the claim is held, the operation's lease
     * @param cause the codec's failure, if any
     */
    public IdempotencyResultNotStorableException(String reason, Duration heldFor, Throwable cause) {
        super(
                "The operation ran, but its result cannot be stored for replay: "
                        + Objects.requireNonNull(reason, "reason")
                        + ". Its key stays claimed for "
                        + Objects.requireNonNull(heldFor, "heldFor").toMillis()
                        + " ms, so that a retry does not repeat the side effect; after that a"
                        + " retry runs it again. Return a type the result codec can store and"
                        + " rebuild.",
                cause);
        this.heldFor = heldFor;
    }

    /**
     * @return how long the claim is held (the operation's lease), after which a retry runs again
     */
    public Duration heldFor() {
        return heldFor;
    }
}
