/**
 * What the bundled stores share: {@link io.idemkit.store.CompletionPoll}, the wait of {@code
 * awaitCompletion}. It uses only the API, the SPI and core; the store packages use it, and it uses
 * no store.
 *
 * <p>Internal: no compatibility guaranteed.
 */
package io.idemkit.store;
