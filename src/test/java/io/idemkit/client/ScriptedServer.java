package io.idemkit.client;

import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.core.Response;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;

/**
 * A server inside the JAX-RS client: a request filter that runs after idemkit's, records what each
 * request carried, and answers it from a script (201 once the script is used up), without a
 * network. Jersey runs the response filters on its answer, as on a real one.
 */
public final class ScriptedServer implements ClientRequestFilter {

    /** One request as it would have gone out. */
    public record Sent(String method, String path, String key) {}

    private final String keyHeader;
    private final List<Sent> sent = new ArrayList<>();
    private final Deque<Supplier<Response>> script = new ArrayDeque<>();

    public ScriptedServer(String keyHeader) {
        this.keyHeader = keyHeader;
    }

    public ScriptedServer() {
        this("Idempotency-Key");
    }

    /**
     * @return a Jersey client with idemkit's feature under {@code settings} and this server
     */
    public Client client(ClientSettings settings) {
        return ClientBuilder.newBuilder()
                .register(new IdempotencyClientFeature(settings))
                .register(this, 10_000)
                .build();
    }

    public Client client() {
        return client(ClientSettings.defaults());
    }

    public ScriptedServer then(Supplier<Response> answer) {
        script.addLast(answer);
        return this;
    }

    public synchronized List<Sent> sent() {
        return List.copyOf(sent);
    }

    public synchronized List<String> keys() {
        return sent.stream().map(Sent::key).toList();
    }

    @Override
    public synchronized void filter(ClientRequestContext request) {
        sent.add(
                new Sent(
                        request.getMethod(),
                        request.getUri().getPath(),
                        request.getHeaderString(keyHeader)));
        Supplier<Response> answer = script.pollFirst();
        request.abortWith(answer == null ? Response.status(201).build() : answer.get());
    }
}
