package io.idemkit.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The input rules of {@link IdempotencyStore}'s Javadoc ("Input rules") for the fenced calls and
 * the wait: a null token or another key's token, a null result or one with a lone surrogate in a
 * header, complete's and renew's TTLs, a result past the store's size limit (an {@link
 * IdempotencyStorageException}, the one failure type of C3, that writes nothing), {@code
 * awaitCompletion}'s timeouts from zero to the longest {@code Duration}, and which of several bad
 * arguments decides the exception. Each refusal changes nothing (C2: fenced calls act only with the
 * matching token).
 */
abstract class FencedCallInputRulesContract extends KeyAndClaimInputRulesContract {

    // --- input rules of the fenced calls, results and waits ----------------------------------

    @Test
    void fencedCalls_nullToken_throwNullPointerExceptionAndChangeNothing() {
        String key = newKey();
        claimNew(key);
        IdempotencyRecord before = store().find(key).orElseThrow();

        assertThatNullPointerException()
                .isThrownBy(() -> store().complete(key, null, result("x"), longLease()));
        assertThatNullPointerException().isThrownBy(() -> store().release(key, null));
        assertThatNullPointerException().isThrownBy(() -> store().renew(key, null, longLease()));

        assertThat(store().find(key)).contains(before);
    }

    @Test
    void fencedCalls_tokenOfAnotherKey_areFalseAndChangeNeitherRecord() {
        String mine = newKey();
        String theirs = newKey();
        claimNew(mine);
        ClaimToken theirToken = claimNew(theirs);
        IdempotencyRecord mineBefore = store().find(mine).orElseThrow();
        IdempotencyRecord theirsBefore = store().find(theirs).orElseThrow();

        assertThat(store().complete(mine, theirToken, result("x"), longLease())).isFalse();
        assertThat(store().renew(mine, theirToken, longLease())).isFalse();
        assertThat(store().release(mine, theirToken)).isFalse();

        assertThat(store().find(mine)).contains(mineBefore);
        assertThat(store().find(theirs)).contains(theirsBefore);
    }

    @Test
    void complete_nullResult_throwsNullPointerExceptionAndKeepsTheClaim() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        IdempotencyRecord before = store().find(key).orElseThrow();

        assertThatNullPointerException()
                .isThrownBy(() -> store().complete(key, token, null, longLease()));

        assertThat(store().find(key)).contains(before);
    }

    @Test
    void complete_headerWithLoneSurrogate_throwsIllegalArgumentExceptionAndKeepsTheClaim() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        IdempotencyRecord before = store().find(key).orElseThrow();
        StoredResult badValue =
                new StoredResult(200, List.of(new StoredHeader("X-A", "a\ud800")), new byte[0]);
        StoredResult badName =
                new StoredResult(200, List.of(new StoredHeader("X-\udc00", "a")), new byte[0]);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> store().complete(key, token, badValue, longLease()));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store().complete(key, token, badName, longLease()));

        assertThat(store().find(key)).contains(before);
        StoredResult pair =
                new StoredResult(
                        200, List.of(new StoredHeader("X-Emoji", "\ud83d\ude00")), new byte[0]);
        assertThat(store().complete(key, token, pair, longLease())).isTrue();
        assertThat(store().find(key).orElseThrow().result()).isEqualTo(pair);
    }

    @Test
    void complete_completedTtlNullOrOutOfRange_throwsAndKeepsTheClaim() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        IdempotencyRecord before = store().find(key).orElseThrow();

        assertThatNullPointerException()
                .isThrownBy(() -> store().complete(key, token, result("x"), null));
        invalidTtls()
                .forEach(
                        (rule, ttl) ->
                                assertThatIllegalArgumentException()
                                        .as("a retention %s", rule)
                                        .isThrownBy(
                                                () ->
                                                        store().complete(
                                                                        key,
                                                                        token,
                                                                        result("x"),
                                                                        ttl)));

        assertThat(store().find(key)).contains(before);
    }

    @Test
    void complete_resultPastTheStoresLimit_throwsStorageExceptionAndKeepsTheClaim() {
        StoredResult tooLarge =
                resultTooLargeToStore()
                        .orElseGet(
                                () -> {
                                    Assumptions.abort("this store has no result size limit");
                                    return null;
                                });
        String key = newKey();
        ClaimToken token = claimNew(key);
        IdempotencyRecord before = store().find(key).orElseThrow();

        assertThatExceptionOfType(IdempotencyStorageException.class)
                .isThrownBy(() -> store().complete(key, token, tooLarge, longLease()));

        assertThat(store().find(key)).contains(before);
        assertThat(store().complete(key, token, result("smaller"), longLease())).isTrue();
    }

    @Test
    void renew_leaseTtlNullOrOutOfRange_throwsAndLeavesTheLease() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        IdempotencyRecord before = store().find(key).orElseThrow();

        assertThatNullPointerException().isThrownBy(() -> store().renew(key, token, null));
        invalidTtls()
                .forEach(
                        (rule, ttl) ->
                                assertThatIllegalArgumentException()
                                        .as("a lease %s", rule)
                                        .isThrownBy(() -> store().renew(key, token, ttl)));

        assertThat(store().find(key)).contains(before);
    }

    @Test
    void awaitCompletion_nullOrNegativeTimeout_throws() {
        String key = newKey();
        assertThatNullPointerException().isThrownBy(() -> store().awaitCompletion(key, null));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store().awaitCompletion(key, Duration.ofNanos(-1)));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store().awaitCompletion(key, Duration.ofSeconds(Long.MIN_VALUE)));
    }

    @Test
    void awaitCompletion_zeroTimeout_looksOnceWithoutWaiting() throws Exception {
        String claimed = newKey();
        claimNew(claimed);
        String completed = newKey();
        store().complete(completed, claimNew(completed), result("done"), longLease());

        assertThat(store().awaitCompletion(claimed, Duration.ZERO)).isEmpty();
        assertThat(store().awaitCompletion(completed, Duration.ZERO))
                .get()
                .extracting(IdempotencyRecord::result)
                .isEqualTo(result("done"));
    }

    @Test
    void awaitCompletion_theLongestTimeout_returnsAtOnceWhenThereIsNothingToWaitFor()
            throws Exception {
        Duration longest = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
        String completed = newKey();
        store().complete(completed, claimNew(completed), result("done"), longLease());

        assertThat(store().awaitCompletion(newKey(), longest)).isEmpty();
        assertThat(store().awaitCompletion(completed, longest)).isPresent();
    }

    @Test
    void severalBadArguments_theFirstInParameterOrderDecidesTheException() {
        String key = newKey();
        assertThatNullPointerException().isThrownBy(() -> store().claim(null, "", 0, null));
        assertThatIllegalArgumentException().isThrownBy(() -> store().claim("", null, V1, null));
        assertThatNullPointerException()
                .isThrownBy(() -> store().claim(key, null, 0, Duration.ZERO));
        assertThatIllegalArgumentException().isThrownBy(() -> store().claim(key, FP, 0, null));
        assertThatNullPointerException()
                .isThrownBy(() -> store().complete(key, null, null, Duration.ZERO));
        assertThatNullPointerException()
                .isThrownBy(() -> store().complete(key, ClaimToken.random(), null, Duration.ZERO));
        assertThatIllegalArgumentException().isThrownBy(() -> store().renew(" ", null, null));
        assertThat(store().find(key)).isEmpty();
    }
}
