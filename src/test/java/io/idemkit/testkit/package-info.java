/**
 * The store testkit, shipped as {@code io.idemkit:idemkit-jakarta:tests}: the contract suite every
 * {@link io.idemkit.spi.IdempotencyStore} must pass, and a manual clock for stores that take one.
 * It needs JUnit 5, AssertJ and Awaitility on the test classpath.
 */
package io.idemkit.testkit;
