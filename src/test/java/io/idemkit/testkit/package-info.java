/**
 * The store testkit, shipped as {@code io.idemkit:idemkit-jakarta:tests}: the contract suite every
 * {@link io.idemkit.spi.IdempotencyStore} must pass, the reference model its random-argument
 * property checks stores against, and a manual clock for stores that take one. It needs JUnit 5,
 * AssertJ, Awaitility and jqwik on the test classpath.
 */
package io.idemkit.testkit;
