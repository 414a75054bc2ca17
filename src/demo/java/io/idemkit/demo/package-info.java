/**
 * The demo application: a payments API protected by idemkit, on an embedded MongoDB-wire server.
 * Started by {@code mvn -Pdemo package}; not part of the library jar.
 */
package io.idemkit.demo;
