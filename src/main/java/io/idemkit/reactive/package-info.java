/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The MicroProfile Reactive Messaging transport (contract C17): an {@code @Idempotent}
 * {@code @Incoming} method that takes a {@code Message<T>} runs once per record key; a duplicate is
 * acknowledged without running once the first run is stored (a processor's sends the stored
 * outgoing payload on again), and a record that keeps failing is run again in place and given up
 * after its attempts. {@link io.idemkit.reactive.ReactiveMessagingTransport} tells the method
 * surface which methods are its listeners, and the interceptor hands it every record through {@code
 * io.idemkit.method.ListenerDelivery}; only this package uses Reactive Messaging, and only {@code
 * KafkaRecordReader} the Kafka client.
 */
package io.idemkit.reactive;
