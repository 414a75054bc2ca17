package io.idemkit.it.kafka.app;

import io.idemkit.Idempotent;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * An {@code @Idempotent @Incoming} method as an application writes it. A record's payload is {@code
 * <mode>:<tag>[:<marker file>]}, and what the method does, it counts under the tag ({@link
 * Counts}): {@code ok} runs; {@code once} runs, keyed by its payload ({@link PaymentIds}); {@code
 * slow} runs for half a second; {@code fail} throws every time; {@code block} blocks for two
 * minutes the first time (while its marker file does not exist yet, across a restart of the server)
 * and runs afterwards; {@code fail-block} throws, except on its second run in a server while its
 * marker file does not exist yet, which blocks.
 *
 * <p>{@code @Blocking}: the method and the library's store calls block, so WildFly's SmallRye runs
 * them on a worker thread rather than the Vert.x event loop, which would stall every channel that
 * shares it (WildFly allows it with {@code jboss.as.reactive.messaging.experimental}). Open Liberty
 * shows applications no {@code io.smallrye} class, so there the annotation is not loaded and has no
 * effect: Liberty calls the method on its executor's threads anyway.
 */
@ApplicationScoped
public class Payments {

    private static final Map<String, AtomicInteger> RUNS_HERE = new ConcurrentHashMap<>();

    @Idempotent(keyExtractor = PaymentIds.class)
    @Incoming("payments")
    @Blocking
    public CompletionStage<Void> consume(Message<String> record) throws Exception {
        String[] parts = record.getPayload().split(":", 3);
        String mode = parts[0];
        String tag = parts[1];
        if (mode.equals("block") && firstTime(Path.of(parts[2]))) {
            Counts.add(tag, "blocked");
            Thread.sleep(120_000);
        }
        Counts.add(tag, "runs");
        if (mode.equals("fail-block")) {
            int here = RUNS_HERE.computeIfAbsent(tag, t -> new AtomicInteger()).incrementAndGet();
            if (here == 2 && firstTime(Path.of(parts[2]))) {
                Counts.add(tag, "blocked");
                Thread.sleep(120_000);
            }
            throw new IllegalStateException("poison record " + tag);
        }
        if (mode.equals("slow")) {
            Thread.sleep(500);
        }
        if (mode.equals("fail")) {
            throw new IllegalStateException("poison record " + tag);
        }
        Counts.add(tag, "done");
        return record.ack();
    }

    private static boolean firstTime(Path marker) throws IOException {
        try {
            Files.createFile(marker);
            return true;
        } catch (java.nio.file.FileAlreadyExistsException e) {
            return false;
        }
    }
}
