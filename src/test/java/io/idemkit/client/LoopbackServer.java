package io.idemkit.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server on loopback (the JDK's), answering requests from a script: a status with
 * headers, a dropped connection, or a stall. It records the key every request arrived with.
 */
final class LoopbackServer implements AutoCloseable {

    /** One scripted answer. */
    @FunctionalInterface
    interface Answer {
        void answer(HttpExchange exchange) throws IOException;
    }

    private final HttpServer server;
    private final Deque<Answer> script = new ArrayDeque<>();
    private final List<String> keys = new ArrayList<>();
    private final CountDownLatch released = new CountDownLatch(1);

    LoopbackServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    /**
     * @return a Jersey client with the feature, as the tests over this server use it
     */
    static Client keyedClient() {
        return ClientBuilder.newBuilder()
                .register(IdempotencyClientFeature.class)
                .connectTimeout(2, TimeUnit.SECONDS)
                .readTimeout(2, TimeUnit.SECONDS)
                .build();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    synchronized LoopbackServer then(Answer answer) {
        script.addLast(answer);
        return this;
    }

    synchronized List<String> keys() {
        return java.util.Collections.unmodifiableList(new ArrayList<>(keys));
    }

    private void handle(HttpExchange exchange) throws IOException {
        exchange.getRequestBody().readAllBytes();
        Answer answer;
        synchronized (this) {
            keys.add(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
            answer = script.pollFirst();
        }
        (answer == null ? status(201) : answer).answer(exchange);
    }

    static Answer status(int status, String... headerPairs) {
        return exchange -> {
            for (int i = 0; i < headerPairs.length; i += 2) {
                exchange.getResponseHeaders().add(headerPairs[i], headerPairs[i + 1]);
            }
            byte[] body = ("{\"status\":" + status + "}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        };
    }

    /**
     * An RFC 9457 problem answer, its {@code type} after an extension member that has a {@code
     * type} of its own, as a validation error's list of fields may.
     */
    static Answer problem(int status, String type, String... headerPairs) {
        return exchange -> {
            for (int i = 0; i < headerPairs.length; i += 2) {
                exchange.getResponseHeaders().add(headerPairs[i], headerPairs[i + 1]);
            }
            byte[] body =
                    ("{\"title\":\"x\",\"errors\":[{\"type\":\"field\",\"at\":\"amount\"}],"
                                    + "\"type\":\""
                                    + type
                                    + "\",\"status\":"
                                    + status
                                    + "}")
                            .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        };
    }

    /** Closes the connection without a response: the request arrived, its answer never leaves. */
    static Answer drop() {
        return exchange -> {
            // A handler that throws before sending headers makes the server close the connection.
            throw new IOException("dropped on purpose");
        };
    }

    /** Answers nothing until the test ends, so that the client's read times out. */
    Answer stall() {
        return exchange -> {
            try {
                released.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        };
    }

    @Override
    public void close() {
        released.countDown();
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
