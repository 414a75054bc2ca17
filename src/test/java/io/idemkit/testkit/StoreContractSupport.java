package io.idemkit.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * The ground the store contract suite stands on, with no tests of its own: the hooks a store's test
 * implements or overrides, fresh keys, and the fixtures every part of {@link
 * IdempotencyStoreContract} shares. Store tests extend {@link IdempotencyStoreContract}, never
 * this; its Javadoc says which hooks a store implements and why every lease is a multiple of {@link
 * #leaseUnit()}.
 */
abstract class StoreContractSupport {

    // The fixtures are package-private: the parts of the suite share them, and a store's test in
    // a package of its own neither sees them nor clashes with them.
    static final SecureRandom RANDOM = new SecureRandom();
    static final String FP = "f".repeat(64);
    static final int V1 = IdempotencyRecord.CURRENT_FINGERPRINT_VERSION;

    /**
     * A fingerprint version this library does not compute: a newer node's, in a rolling upgrade.
     */
    static final int V2 = V1 + 1;

    static final int MAX_KEY = io.idemkit.spi.StoreArguments.MAX_KEY_LENGTH;

    /**
     * @return the store under test; the same or a new instance on each call
     */
    protected abstract IdempotencyStore store();

    /**
     * Lets {@code amount} pass on the store's clock: move a manual clock, or wait in real time
     * until the store's clock has moved that far.
     *
     * @param amount how much time must pass
     */
    protected abstract void elapse(Duration amount);

    /**
     * @return the unit of every lease and TTL in the suite: comfortably longer than a few round
     *     trips to the store. Stores on a real clock keep the default; manual clocks may use any.
     */
    protected Duration leaseUnit() {
        return Duration.ofMillis(500);
    }

    /**
     * Writes raw data under {@code key} that the store cannot read as a record (a wrong type, a
     * missing field). Stores whose records are always well-typed leave this as it is, and the test
     * that needs it is skipped.
     *
     * @param key the effective key to corrupt
     */
    protected void plantUnreadableRecord(String key) {
        Assumptions.abort("this store cannot hold unreadable raw data");
    }

    /**
     * Writes {@code record} under its key as another node sharing the store would have written it,
     * of whatever fingerprint version (a newer node's in a rolling upgrade, or one below 1 that no
     * node writes). A store that can write raw data overrides this to write the record's fields as
     * they are, its token and times included (times are on the store's clock, {@link
     * IdempotencyStore#now()}), so that the test does not go through the store's own claim. The
     * default goes through the SPI, as a node that computes that version would: it claims with the
     * record's fingerprint and version, completes the claim when the record is completed, and, for
     * a record that is no longer live, lets its lease or retention run out with {@link #elapse};
     * the token and times are then the store's own. It skips the test for a version below 1, which
     * no claim writes.
     *
     * @param record the record to write; live or not at the store's {@code now()}
     * @return the record as written, with the token a claim then finds in it
     */
    protected IdempotencyRecord plantRecord(IdempotencyRecord record) {
        if (!IdempotencyRecord.isReadableFingerprintVersion(record.fingerprintVersion())) {
            Assumptions.abort("this store holds only records its own claims wrote");
        }
        Instant now = store().now();
        boolean live = record.isLiveAt(now);
        boolean completed = record.state() == RecordState.COMPLETED;
        Duration lease = live && !completed ? Duration.between(now, record.leaseUntil()) : units(1);
        ClaimResult claim =
                store().claim(
                                record.key(),
                                record.fingerprint(),
                                record.fingerprintVersion(),
                                lease);
        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        IdempotencyRecord written = claim.record();
        if (completed) {
            Duration retention = live ? Duration.between(now, record.expiresAt()) : units(1);
            assertThat(store().complete(record.key(), claim.token(), record.result(), retention))
                    .isTrue();
            written = written.complete(now, now.plus(retention), record.result());
        }
        if (!live) {
            elapse(units(2));
        }
        return written;
    }

    /**
     * @return whether the store implements {@link IdempotencyStore#purgeExpired()}; {@code true}
     *     unless a store overrides it, and then the contract expects the SPI's default refusal
     */
    protected boolean purgesOnDemand() {
        return true;
    }

    /**
     * @return whether the store implements {@link IdempotencyStore#countAttempt}; {@code true}
     *     unless a store overrides it, and then the contract expects the SPI's default refusal
     */
    protected boolean countsAttempts() {
        return true;
    }

    /**
     * @return whether the server under the store applies racing updates of one count one at a time,
     *     so that racing {@code countAttempt} calls get different counts; {@code false} only for a
     *     test server known not to (the race is then skipped, saying so)
     */
    protected boolean countsAtomicallyUnderRaces() {
        return true;
    }

    /**
     * A result this store refuses as too large, if it has a limit: the contract then checks that
     * the refusal is an {@code IdempotencyStorageException} that writes nothing. Stores without a
     * limit keep the default, and that test is skipped.
     *
     * @return a result past the store's limit, or empty
     */
    protected Optional<StoredResult> resultTooLargeToStore() {
        return Optional.empty();
    }

    /**
     * @return a fresh random effective key
     */
    protected static String newKey() {
        byte[] bits = new byte[32];
        RANDOM.nextBytes(bits);
        return HexFormat.of().formatHex(bits);
    }

    Duration units(long n) {
        return leaseUnit().multipliedBy(n);
    }

    Duration longLease() {
        return units(60);
    }

    static StoredResult result(String body) {
        return new StoredResult(
                201,
                List.of(new StoredHeader("Location", "/r/1")),
                body.getBytes(StandardCharsets.UTF_8));
    }

    ClaimToken claimNew(String key) {
        ClaimResult claim = store().claim(key, FP, V1, longLease());
        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        return claim.token();
    }
}
