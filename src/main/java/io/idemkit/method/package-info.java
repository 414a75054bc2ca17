/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The method surface (contract C7): the CDI interceptor that makes {@code @Idempotent} CDI bean
 * and EJB methods run once per key. It turns an invocation into an {@code Operation} (key,
 * fingerprint, policy), hands it to the engine, and turns the engine's answer back into the
 * method's return value; it holds no idempotency logic of its own. A message transport's listener
 * method (a message-driven bean's {@code onMessage}: {@link io.idemkit.method.MessageTransport}) it
 * hands to that transport's {@link io.idemkit.method.ListenerDelivery}, and a method completed
 * inside its transaction to {@code io.idemkit.transaction}.
 */
package io.idemkit.method;
