package io.idemkit.reactive;

import io.idemkit.core.Execution;
import io.idemkit.method.IdempotentInterceptor;
import io.idemkit.spi.MethodResultCodec;
import io.idemkit.spi.StoredResult;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * A processor's outgoing payloads (C17.6): stored when the method returns its outgoing message, and
 * sent on again, with a duplicate's own acknowledgement, in place of a run. Stored when the method
 * returns, before the outgoing message is written: a server that dies in between redelivers the
 * record, whose replay then sends the stored payload on, so that the stage is effectively once end
 * to end. A processor that sends nothing ({@code null}) stores that, and so do its duplicates.
 */
final class Outputs {

    private static final System.Logger LOG = System.getLogger(Outputs.class.getName());
    private static final int SENT = 200;
    private static final byte[] NOTHING = IdempotentInterceptor.VOID_MARKER;

    private final MethodResultCodec codec;
    private final int maxBodyBytes;
    private final boolean reEmit;

    /**
     * @param codec the application's result codec, JSON-B by default
     * @param maxBodyBytes the largest payload stored
     * @param reEmit whether a duplicate sends the stored payload on, or nothing
     */
    Outputs(MethodResultCodec codec, int maxBodyBytes, boolean reEmit) {
        this.codec = codec;
        this.maxBodyBytes = maxBodyBytes;
        this.reEmit = reEmit;
    }

    /**
     * Stores what a processor returned, and returns it on; a stage, once it completes, and a stage
     * that fails ends the run as {@code failed}.
     *
     * @param returned the outgoing message, {@code null}, or a stage of one
     * @param failed ends the run as failed: its stage failed after the call returned
     */
    Object store(
            Object returned,
            MethodForm form,
            Execution execution,
            String description,
            Consumer<Throwable> failed) {
        if (returned instanceof CompletionStage<?> stage) {
            return stage.handle(
                    (out, failure) -> {
                        if (failure != null) {
                            Throwable cause =
                                    failure instanceof CompletionException
                                                    && failure.getCause() != null
                                            ? failure.getCause()
                                            : failure;
                            failed.accept(cause);
                            throw new CompletionException(cause);
                        }
                        storeNow((Message<?>) out, form, execution, description);
                        return out;
                    });
        }
        storeNow((Message<?>) returned, form, execution, description);
        return returned;
    }

    private void storeNow(
            Message<?> out, MethodForm form, Execution execution, String description) {
        if (out == null) {
            execution.finish(new StoredResult(SENT, List.of(), NOTHING));
            return;
        }
        byte[] bytes;
        try {
            bytes = codec.encode(out.getPayload(), form.payload());
            // Proven now, not at the first duplicate: a payload stored is one that is sent again.
            codec.decode(bytes, form.payload());
        } catch (RuntimeException e) {
            hold(
                    execution,
                    description,
                    "the result codec cannot store and rebuild it as "
                            + form.payload().getTypeName()
                            + " ("
                            + e.getClass().getName()
                            + ")");
            return;
        }
        if (bytes.length > maxBodyBytes) {
            hold(
                    execution,
                    description,
                    bytes.length + " bytes, above idemkit.max-body-bytes=" + maxBodyBytes);
            return;
        }
        execution.finish(new StoredResult(SENT, List.of(), bytes));
    }

    /** An outgoing payload sent but not storable: the key stays claimed until its lease ends. */
    private static void hold(Execution execution, String description, String why) {
        execution.hold();
        LOG.log(
                Level.WARNING,
                "idemkit cannot store the outgoing payload of "
                        + description
                        + ": "
                        + why
                        + ". It was sent on; a duplicate within the lease waits, and one after it"
                        + " runs the method again.");
    }

    /**
     * What a duplicate of a completed record returns: the stored payload sent on with the
     * duplicate's acknowledgement, or, for nothing stored, a given-up record or {@code drop},
     * nothing, the record acknowledged.
     *
     * @throws RuntimeException the codec's, when the stored payload cannot be rebuilt
     */
    Object replay(Message<?> message, MethodForm form, StoredResult stored) {
        byte[] body = stored.body();
        if (!form.processor()
                || !reEmit
                || Arrays.equals(body, NOTHING)
                || Arrays.equals(body, RecordOutcomes.EXHAUSTED_MARKER)) {
            return form.nothing(message.ack());
        }
        return form.output(message.withPayload(codec.decode(body, form.payload())));
    }
}
