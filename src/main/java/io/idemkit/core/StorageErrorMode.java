package io.idemkit.core;

/** What to do when the store fails before an operation could be claimed (contract C4.6). */
public enum StorageErrorMode {
    /** Refuse the operation with a storage error. The default: never run unprotected. */
    FAIL_CLOSED,
    /** Run the operation without protection, and emit {@code storage_error}. */
    FAIL_OPEN
}
