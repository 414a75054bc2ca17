package io.idemkit.it.method.app;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The reference's tools ({@code ai_tool_scenarios}) as {@code @Idempotent} CDI methods: a tool's
 * {@code key_fields} are its {@code @IdempotencyKey} parameters, and an argument that is no key
 * field is {@code @IdempotencyIgnored}. Each counts its runs in {@link Executions} under its name
 * and its first key field.
 */
@ApplicationScoped
public class Tools {

    @Inject Executions executions;

    /** Books a flight; {@code requestId} differs on every retry of one booking. */
    @Idempotent
    public String book(
            @IdempotencyKey String origin,
            @IdempotencyKey String destination,
            @IdempotencyIgnored String requestId) {
        int run = executions.ran("book:" + origin);
        return origin + "-" + destination + "-" + run;
    }

    /** Acts on {@code x}; long enough that concurrent duplicates arrive while it runs. */
    @Idempotent
    public String act(@IdempotencyKey String x) throws InterruptedException {
        int run = executions.ran("act:" + x);
        Thread.sleep(300);
        return x + "-" + run;
    }

    /** Crashes on its first run, as a tool that raises mid-call; succeeds after. */
    @Idempotent
    public String crashOnce(@IdempotencyKey String x) {
        int run = executions.ran("crash-once:" + x);
        if (run == 1) {
            throw new IllegalStateException("tool crashed");
        }
        return x + "-" + run;
    }

    /** Returns what JSON-B cannot write; duplicates do not wait. */
    @Idempotent(waitTimeout = "0s")
    public UnwritableResult unserializable(@IdempotencyKey String x) {
        executions.ran("unserializable:" + x);
        return new UnwritableResult();
    }
}
