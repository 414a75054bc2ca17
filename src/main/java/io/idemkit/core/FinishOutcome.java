package io.idemkit.core;

/** What became of an operation's outcome when its {@link Execution} finished. */
public enum FinishOutcome {
    /** The result was stored; duplicates replay it. */
    STORED,
    /** The result was not cacheable, or the operation failed: the claim was released. */
    RELEASED,
    /** The lease had been taken over: the result was discarded (fenced out), not stored. */
    LOST,
    /**
     * The store failed while storing the result. The claim is held, so that duplicates wait and the
     * lease (not an immediate retry) governs re-execution.
     */
    STORE_FAILED,
    /** The result could not be stored; the claim is held until its lease runs out. */
    HELD,
    /**
     * The policy's redactor failed: nothing was stored, and the claim was released so that a retry
     * runs again (C4.10).
     */
    REDACTION_FAILED
}
