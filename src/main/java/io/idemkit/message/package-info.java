/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The Jakarta Messaging transport (contract C11): an {@code @Idempotent} message-driven bean's
 * {@code onMessage} runs once per message key, duplicates are acknowledged once the first run has
 * committed, and a message that keeps failing is given up after its attempts. {@link
 * io.idemkit.message.JmsTransport} tells the method surface which methods are its listeners, and
 * the interceptor hands it every delivery through {@code io.idemkit.method.ListenerDelivery}; only
 * this package uses Jakarta Messaging.
 */
package io.idemkit.message;
