/**
 * The calling side of idempotency (contract C14): one key per logical operation, reused on every
 * retry of it and never across two.
 *
 * <ul>
 *   <li>{@link io.idemkit.client.IdempotentOperation} on a CDI bean's method, or {@link
 *       io.idemkit.client.IdempotentOperations} in any code, opens an operation; {@link
 *       io.idemkit.client.OperationKey} lets the application name it, and {@link
 *       io.idemkit.client.StepKey} or {@link io.idemkit.client.IdempotentOperations#step} name a
 *       step in it, whose requests keep their keys whatever ran before them;
 *   <li>{@link io.idemkit.client.IdempotencyClientFeature}, registered on a JAX-RS client or a
 *       MicroProfile Rest Client, sends each unsafe request of an operation with a key derived from
 *       the operation's, also when the request is sent from another thread than the one that
 *       invoked it (a {@code CompletionStage} Rest Client method, a captured JAX-RS {@code async()}
 *       call);
 *   <li>{@link io.idemkit.client.IdempotentRetry} sends a keyed call again after a failure that a
 *       retry with the same key can cure, and says in a {@link io.idemkit.client.RetryOutcome} how
 *       many attempts it took and whether the answer was a replay.
 * </ul>
 *
 * <p>Public API, covered by semantic versioning: the types named above, {@link
 * io.idemkit.client.OperationScope}, {@link io.idemkit.client.OperationCall}, {@link
 * io.idemkit.client.ClientSettings}, {@link io.idemkit.client.IdempotentResponses}, and what a
 * caller of {@link io.idemkit.client.IdempotentRetry} may get: {@link
 * io.idemkit.client.IdempotencyKeyReusedException}, {@link
 * io.idemkit.client.IdempotencyStillInProgressException}, {@link
 * io.idemkit.client.IdempotencyKeyChangedException} and {@link io.idemkit.client.RetryEnded}. Every
 * other class here is internal. This package uses the API and the configuration reading, and
 * nothing of the server side: the engine, the stores and the surfaces.
 */
package io.idemkit.client;
