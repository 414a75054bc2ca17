package io.idemkit.config;

/**
 * What a duplicate record of an {@code @Incoming @Outgoing} method (a processor) sends on (C17.6):
 * {@code idemkit.message.processor-duplicates}.
 */
public enum ProcessorDuplicates {

    /**
     * The first run's outgoing payload, stored, sent on again with the duplicate's own
     * acknowledgement: a stage of a pipeline whose output was lost with a crash sends it then.
     */
    RE_EMIT,

    /** Nothing: the duplicate is acknowledged, and no outgoing message is sent for it. */
    DROP
}
