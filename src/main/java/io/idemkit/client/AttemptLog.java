package io.idemkit.client;

import java.util.OptionalInt;

/**
 * What one attempt of an operation's body sent and received, as the client filter saw it: the facts
 * a retry is decided on (C14.5). Thread-safe: a request may be sent from another thread than the
 * attempt's.
 */
final class AttemptLog {

    private int sent;
    private boolean unkeyedUnsafe;
    private int lastStatus = -1;
    private boolean lastReplayed;
    private String lastRetryAfter;
    private String lastProblemType;
    private Boolean lastShouldRetry;

    synchronized void clear() {
        sent = 0;
        unkeyedUnsafe = false;
        lastStatus = -1;
        lastReplayed = false;
        lastRetryAfter = null;
        lastProblemType = null;
        lastShouldRetry = null;
    }

    /**
     * @param keyed whether the request carried a key
     * @param unsafe whether its method is unsafe (neither GET, HEAD, OPTIONS nor TRACE)
     */
    synchronized void sent(boolean keyed, boolean unsafe) {
        sent++;
        if (unsafe && !keyed) {
            unkeyedUnsafe = true;
        }
    }

    synchronized void received(int status, boolean replayed, String retryAfter) {
        received(status, replayed, retryAfter, null, null);
    }

    /**
     * @param problemType the {@code type} of the response's problem body, {@code null} if none
     * @param shouldRetry its {@code Stripe-Should-Retry}, {@code null} if absent or neither {@code
     *     true} nor {@code false}
     */
    synchronized void received(
            int status,
            boolean replayed,
            String retryAfter,
            String problemType,
            Boolean shouldRetry) {
        lastStatus = status;
        lastReplayed = replayed;
        lastRetryAfter = retryAfter;
        lastProblemType = problemType;
        lastShouldRetry = shouldRetry;
    }

    /**
     * @return whether the attempt sent a request through the client filter, and every unsafe one
     *     carried a key: only then may it be sent again
     */
    synchronized boolean safeToRepeat() {
        return sent > 0 && !unkeyedUnsafe;
    }

    /**
     * @return whether any request went through the client filter
     */
    synchronized boolean sentAny() {
        return sent > 0;
    }

    synchronized OptionalInt lastStatus() {
        return lastStatus < 0 ? OptionalInt.empty() : OptionalInt.of(lastStatus);
    }

    synchronized boolean lastReplayed() {
        return lastReplayed;
    }

    synchronized String lastRetryAfter() {
        return lastRetryAfter;
    }

    synchronized String lastProblemType() {
        return lastProblemType;
    }

    synchronized Boolean lastShouldRetry() {
        return lastShouldRetry;
    }
}
