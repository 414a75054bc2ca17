package io.idemkit.spi;

import java.util.Objects;

/**
 * The answer of a {@link IdempotencyStore#claim claim}.
 *
 * @param status what the claim found and did
 * @param record the record as it is after the claim: the caller's own new claim when {@link
 *     ClaimStatus#won() won} (its {@link IdempotencyRecord#token() token} is the caller's), the
 *     other caller's live claim, or the completed record
 * @param recoveredFromCorrupt whether an unreadable record was overwritten by this claim; only ever
 *     true together with {@link ClaimStatus#NEW}
 */
public record ClaimResult(
        ClaimStatus status, IdempotencyRecord record, boolean recoveredFromCorrupt) {

    /**
     * Validates the components.
     *
     * @param status what the claim found and did
     * @param record the record as it is after the claim: the caller's own new claim when {@link
     *     ClaimStatus#won() won} (its {@link IdempotencyRecord#token() token} is the caller's), the
     *     other caller's live claim, or the completed record
     * @param recoveredFromCorrupt whether an unreadable record was overwritten by this claim; only
     *     ever true together with {@link ClaimStatus#NEW}
     */
    public ClaimResult {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(record, "record");
        if (recoveredFromCorrupt && status != ClaimStatus.NEW) {
            throw new IllegalArgumentException("only a NEW claim can recover a corrupt record");
        }
        RecordState expected =
                status == ClaimStatus.ALREADY_COMPLETED
                        ? RecordState.COMPLETED
                        : RecordState.CLAIMED;
        if (record.state() != expected) {
            throw new IllegalArgumentException(
                    "a " + status + " claim must return a " + expected + " record");
        }
    }

    /**
     * @param status the claim's status
     * @param record the record after the claim
     * @return a result that recovered nothing
     */
    public static ClaimResult of(ClaimStatus status, IdempotencyRecord record) {
        return new ClaimResult(status, record, false);
    }

    /**
     * @return the caller's token, for a won claim
     * @throws IllegalStateException if the claim was not won
     */
    public ClaimToken token() {
        if (!status.won()) {
            throw new IllegalStateException(
                    "a " + status + " claim carries no token of the caller");
        }
        return record.token();
    }
}
