package io.idemkit.client;

import java.util.List;
import org.eclipse.microprofile.rest.client.RestClientBuilder;
import org.eclipse.microprofile.rest.client.ext.AsyncInvocationInterceptor;
import org.eclipse.microprofile.rest.client.ext.AsyncInvocationInterceptorFactory;
import org.eclipse.microprofile.rest.client.spi.RestClientListener;

/**
 * Internal: no compatibility guaranteed; public for the {@code ServiceLoader} only.
 *
 * <p>Carries the operation into a MicroProfile Rest Client method that returns a {@code
 * CompletionStage} (C14.8). The Rest Client runs such a call on another thread; its {@code
 * AsyncInvocationInterceptor} is the specification's hook for this: {@code prepareContext} runs on
 * the invoking thread, {@code applyContext} and {@code removeContext} on the thread that sends the
 * request. Loaded by the Rest Client implementation as a {@code RestClientListener} for every
 * client it builds; where no operation is open, it does nothing. Thread-safe.
 */
public final class AsyncOperationListener implements RestClientListener {

    /** Public for the {@code ServiceLoader}. */
    public AsyncOperationListener() {}

    @Override
    public void onNewClient(Class<?> serviceInterface, RestClientBuilder builder) {
        builder.register(new Factory());
    }

    /** Made by the Rest Client once per invocation. */
    static final class Factory implements AsyncInvocationInterceptorFactory {
        @Override
        public AsyncInvocationInterceptor newInterceptor() {
            return new Interceptor();
        }
    }

    /**
     * One invocation: captures on the invoking thread, carries it to the sending thread for the one
     * request the invocation sends. The carried levels close when the client filter has keyed that
     * request, or at {@code removeContext}, on whatever thread the implementation calls it: a
     * sending thread never keeps them (C14.1), also where {@code removeContext} is never called
     * after a failed send, or is called on another thread.
     */
    static final class Interceptor implements AsyncInvocationInterceptor {

        private List<OperationStack.Level> captured = List.of();
        private final OperationStack.Carry carry = new OperationStack.Carry();
        private List<OperationStack.Level> applied = List.of();

        @Override
        public void prepareContext() {
            captured = OperationStack.all();
        }

        @Override
        public void applyContext() {
            if (captured.isEmpty() || carry.closed() || OperationStack.contains(captured.get(0))) {
                // Sent on the invoking thread itself: its levels are there already.
                return;
            }
            applied = captured.stream().map(l -> l.carriedBy(carry)).toList();
            applied.forEach(OperationStack::push);
        }

        @Override
        public void removeContext() {
            carry.close();
            if (!applied.isEmpty()) {
                // Drops them here if this is the sending thread; elsewhere, the closed carry does.
                OperationStack.remove(applied.get(0));
            }
        }
    }
}
