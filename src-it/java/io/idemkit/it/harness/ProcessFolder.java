package io.idemkit.it.harness;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The folder of a server process the tests start themselves (Redis, Kafka): its output, its end.
 */
final class ProcessFolder {

    private ProcessFolder() {}

    /**
     * @param folder the process's folder
     * @param lines how many lines of each file
     * @param files the files it prints and logs to, in that folder
     * @return the last lines of each file there is, for a failure's message
     */
    static String tail(Path folder, int lines, String... files) {
        StringBuilder tail = new StringBuilder();
        for (String file : files) {
            try {
                List<String> written = Files.readAllLines(folder.resolve(file));
                tail.append("\n--- ").append(file).append(" (end) ---\n");
                written.subList(Math.max(0, written.size() - lines), written.size())
                        .forEach(line -> tail.append(line).append('\n'));
            } catch (IOException | UncheckedIOException e) {
                // not written (yet)
            }
        }
        return tail.toString();
    }

    /** Deletes {@code folder} and what it holds, as far as it can: a leftover, nothing worse. */
    static void delete(Path folder) {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException | UncheckedIOException e) {
            // what is left stays
        }
    }
}
