package io.idemkit.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The operating system's side of a {@link RedisServer}: its process, signals, files. */
final class RedisProcess {

    private RedisProcess() {}

    /**
     * @param command the binary and its options
     * @param folder its working folder, where {@code redis.out} takes what it prints (a bad
     *     option's complaint comes there, not to the log file)
     * @return the started process
     */
    static Process launch(List<String> command, Path folder) {
        try {
            return new ProcessBuilder(command)
                    .directory(folder.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(
                            ProcessBuilder.Redirect.appendTo(folder.resolve("redis.out").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** Waits up to 10 s until {@code process} has ended, then kills it (SIGKILL) and waits. */
    static void awaitExit(Process process) {
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /**
     * Sends a signal with {@code kill}: Java has no SIGSTOP or SIGCONT of its own.
     *
     * @param process the process
     * @param signal {@code STOP}, {@code CONT}
     */
    static void signal(Process process, String signal) {
        try {
            Process kill =
                    new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid()))
                            .redirectErrorStream(true)
                            .start();
            String said = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " failed: " + said);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * @return the last lines of what the process in {@code folder} printed and logged
     */
    static String tail(Path folder) {
        return ProcessFolder.tail(folder, 20, "redis.out", "redis.log");
    }
}
