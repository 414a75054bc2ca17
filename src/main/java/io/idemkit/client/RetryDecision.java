package io.idemkit.client;

import java.time.Duration;

/**
 * Whether to send a call again, and after how long (C14.5).
 *
 * @param retry whether to
 * @param delay how long to wait first; zero when not retrying
 * @param reason why, for the DEBUG log
 */
record RetryDecision(boolean retry, Duration delay, String reason) {

    static RetryDecision stop(String reason) {
        return new RetryDecision(false, Duration.ZERO, reason);
    }

    static RetryDecision after(Duration delay, String reason) {
        return new RetryDecision(true, delay, reason);
    }
}
