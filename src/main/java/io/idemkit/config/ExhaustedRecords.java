package io.idemkit.config;

/**
 * What becomes of a Kafka record once it is given up after its attempts (C17.4), after the {@code
 * IdempotencyRecordExhausted} observers ran: {@code idemkit.message.exhausted}.
 */
public enum ExhaustedRecords {

    /**
     * Acknowledged: the record is committed and the channel goes on; an observer forwards it where
     * it must go. On every runtime, Open Liberty's included, whose connector stops the channel at a
     * nack.
     */
    ACKNOWLEDGE,

    /**
     * Nacked, so that the connector's failure strategy applies: WildFly's {@code dead-letter-queue}
     * sends it to the dead-letter topic.
     */
    NACK
}
