/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The global {@code idemkit.*} configuration (contract C8): every key and default in {@link
 * io.idemkit.config.ConfigKeys}, read from MicroProfile Config and validated as a whole, so that a
 * bad value fails the deployment with a message naming the key, the value and the rule. A method's
 * own members and keys, merged over these, are {@link io.idemkit.policy}'s.
 */
package io.idemkit.config;
