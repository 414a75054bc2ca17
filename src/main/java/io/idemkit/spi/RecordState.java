package io.idemkit.spi;

/** The state of a stored record. An absent record has no state: it simply is not there. */
public enum RecordState {
    /** An executor holds the key under a lease and has not finished yet. */
    CLAIMED,
    /** The operation finished and its result is kept for replay until the record expires. */
    COMPLETED
}
