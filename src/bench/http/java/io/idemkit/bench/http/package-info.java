/**
 * The HTTP benchmark's application (run by {@code src/bench/http/run.sh}); not part of the library
 * jar.
 */
package io.idemkit.bench.http;
