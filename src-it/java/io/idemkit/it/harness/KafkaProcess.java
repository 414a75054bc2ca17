package io.idemkit.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The operating system's side of a {@link KafkaBroker}: its JVM, its files. */
final class KafkaProcess {

    private KafkaProcess() {}

    /**
     * Starts a JVM of Kafka's, on the broker's class path, in {@code folder}, where {@code
     * broker.out} takes what it prints and {@code log4j2.properties} says how it logs.
     *
     * @param lib the folder of the broker's jars
     * @param folder the broker's folder
     * @param mainClass {@code kafka.Kafka}, {@code kafka.tools.StorageTool}
     * @param arguments its arguments
     * @return the started process
     */
    static Process launch(Path lib, Path folder, String mainClass, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // A small heap and C1 only: the tests' broker holds a few records, and starts often.
        command.addAll(
                List.of(
                        "-Xmx256m",
                        "-Xms64m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "-Djava.awt.headless=true",
                        "-Dlog4j2.configurationFile=" + folder.resolve("log4j2.properties"),
                        "-cp",
                        lib + "/*",
                        mainClass));
        command.addAll(List.of(arguments));
        try {
            return new ProcessBuilder(command)
                    .directory(folder.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(
                            ProcessBuilder.Redirect.appendTo(folder.resolve("broker.out").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /**
     * Waits {@code patience} until {@code process} has ended, then kills it (SIGKILL) and waits.
     */
    static void awaitExit(Process process, Duration patience) {
        try {
            if (!process.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /**
     * @return the last lines of what the process in {@code folder} printed and logged
     */
    static String tail(Path folder) {
        return ProcessFolder.tail(folder, 30, "broker.out", "server.log");
    }
}
