package io.idemkit.it.transaction.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** How far each test's calls got, by tag, for the test to read between its steps. */
final class Progress {

    private static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();
    private static final Map<String, AtomicInteger> PAUSED = new ConcurrentHashMap<>();

    private Progress() {}

    static void ran(String tag) {
        RUNS.computeIfAbsent(tag, t -> new AtomicInteger()).incrementAndGet();
    }

    static void pausedAfterCommit(String tag) {
        PAUSED.computeIfAbsent(tag, t -> new AtomicInteger()).incrementAndGet();
    }

    static int runs(String tag) {
        AtomicInteger n = RUNS.get(tag);
        return n == null ? 0 : n.get();
    }

    static int paused(String tag) {
        AtomicInteger n = PAUSED.get(tag);
        return n == null ? 0 : n.get();
    }

    /** Waits, up to two minutes, until the file {@code marker} exists; no marker, no wait. */
    static void awaitMarker(String marker) throws InterruptedException {
        if (marker == null || marker.isEmpty()) {
            return;
        }
        Path file = Path.of(marker);
        long until = System.nanoTime() + 120_000_000_000L;
        while (!Files.exists(file) && System.nanoTime() < until) {
            Thread.sleep(50); // the test's signal is a file; nothing to wait on but the disk
        }
    }
}
