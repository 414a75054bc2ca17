package io.idemkit.it.harness;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

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
     * @return the last lines of what the server in {@code folder} said, for a failure's message
     */
    static String tail(Path folder) {
        StringBuilder tail = new StringBuilder();
        for (String file : List.of("redis.out", "redis.log")) {
            try {
                List<String> lines = Files.readAllLines(folder.resolve(file));
                tail.append("\n--- ").append(file).append(" (end) ---\n");
                lines.subList(Math.max(0, lines.size() - 20), lines.size())
                        .forEach(line -> tail.append(line).append('\n'));
            } catch (IOException | UncheckedIOException e) {
                // not written (yet)
            }
        }
        return tail.toString();
    }

    /** Deletes {@code folder} and what it holds, as far as it can. */
    static void delete(Path folder) {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException | UncheckedIOException e) {
            // a leftover in the temporary folder, nothing worse
        }
    }
}
