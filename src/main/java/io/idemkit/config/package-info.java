/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The global {@code idemkit.*} configuration (contract C8): the engine's keys and the surfaces'
 * defaults in {@link io.idemkit.config.ConfigKeys}, and the seam through which a wing declares and
 * reads its own ({@link io.idemkit.config.ConfigSection}); all read from MicroProfile Config in one
 * {@link io.idemkit.config.ConfigValues} and validated as a whole, so that a bad value fails the
 * deployment with a message naming the key, the value and the rule. A method's own members and
 * keys, merged over these, are {@link io.idemkit.policy}'s.
 */
package io.idemkit.config;
