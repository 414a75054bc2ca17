package io.idemkit.it.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;

/**
 * The {@code redis-server} executable that {@code com.github.codemonstur:embedded-redis} carries as
 * a jar resource (its Java wrapper is not used), written once per JVM to the machine's temporary
 * folder under the resource's name, which holds the version, so that every JVM of the build (and
 * every build) shares one file.
 */
final class RedisBinary {

    private static Path path;

    private RedisBinary() {}

    /**
     * @return the executable for this machine, extracted when it is not there yet; a platform the
     *     jar has no binary for aborts the calling test (JUnit {@link Assumptions}), saying why
     */
    static synchronized Path path() {
        if (path == null) {
            path = extract(resource());
        }
        return path;
    }

    /** The jar's resource for this machine's {@code os.name} and {@code os.arch}. */
    private static String resource() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        boolean amd64 = arch.equals("amd64") || arch.equals("x86_64");
        boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
        String name = null;
        if (os.contains("linux")) {
            name =
                    amd64
                            ? "redis-server-6.2.6-v5-linux-amd64"
                            : arm64
                                    ? "redis-server-6.2.7-linux-arm64"
                                    : arch.matches("x86|i[3-6]86")
                                            ? "redis-server-6.2.7-linux-386"
                                            : null;
        } else if (os.contains("mac") || os.contains("darwin")) {
            name =
                    amd64
                            ? "redis-server-6.2.6-v5-darwin-amd64"
                            : arm64 ? "redis-server-6.2.6-v5-darwin-arm64" : null;
        }
        // Windows: the jar's binary is Redis 5.0, and SIGSTOP (pause) has no Windows counterpart.
        Assumptions.assumeTrue(
                name != null,
                "no redis-server binary in embedded-redis for "
                        + System.getProperty("os.name")
                        + "/"
                        + System.getProperty("os.arch")
                        + ": the Redis tests need Linux or macOS on amd64 or arm64");
        Assumptions.assumeTrue(
                RedisBinary.class.getResource("/" + name) != null,
                "the resource " + name + " is not on the test classpath (embedded-redis)");
        return name;
    }

    /**
     * Writes the resource to a temporary file beside the target, makes it executable and moves it
     * into place atomically, so that a JVM that finds the target finds it whole.
     */
    private static Path extract(String resource) {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        Path target = tmp.resolve("idemkit-" + resource);
        if (Files.isExecutable(target)) {
            return target;
        }
        try {
            Path part = Files.createTempFile(tmp, "idemkit-" + resource, ".part");
            try (InputStream in = RedisBinary.class.getResourceAsStream("/" + resource)) {
                Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
                Files.setPosixFilePermissions(part, PosixFilePermissions.fromString("rwxr-xr-x"));
                try {
                    Files.move(part, target, StandardCopyOption.ATOMIC_MOVE);
                } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
                    // another JVM was first (its file is whole), or the folder cannot move
                    // atomically: replacing is still a rename on one file system
                    Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(part);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        }
    }
}
