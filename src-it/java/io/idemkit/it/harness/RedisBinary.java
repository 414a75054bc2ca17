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
import java.util.Optional;
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

    /** The jar's resource for this machine; aborts the calling test where there is none. */
    private static String resource() {
        Optional<String> name =
                resource(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
        Assumptions.assumeTrue(
                name.isPresent(),
                "no redis-server binary in embedded-redis for "
                        + System.getProperty("os.name")
                        + "/"
                        + System.getProperty("os.arch")
                        + ": the Redis tests need Linux or macOS on amd64 or arm64 (or Linux x86)");
        Assumptions.assumeTrue(
                RedisBinary.class.getResource("/" + name.get()) != null,
                "the resource " + name.get() + " is not on the test classpath (embedded-redis)");
        return name.get();
    }

    /**
     * @param osName {@code os.name}
     * @param osArch {@code os.arch}
     * @return embedded-redis's resource for that platform, if it has one (Windows: its binary is
     *     Redis 5.0, and SIGSTOP has no Windows counterpart)
     */
    static Optional<String> resource(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        boolean amd64 = arch.equals("amd64") || arch.equals("x86_64");
        boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
        if (os.contains("linux")) {
            if (amd64) {
                return Optional.of("redis-server-6.2.6-v5-linux-amd64");
            }
            if (arm64) {
                return Optional.of("redis-server-6.2.7-linux-arm64");
            }
            if (arch.matches("x86|i[3-6]86")) {
                return Optional.of("redis-server-6.2.7-linux-386");
            }
        } else if (os.contains("mac") || os.contains("darwin")) {
            if (amd64) {
                return Optional.of("redis-server-6.2.6-v5-darwin-amd64");
            }
            if (arm64) {
                return Optional.of("redis-server-6.2.6-v5-darwin-arm64");
            }
        }
        return Optional.empty();
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
