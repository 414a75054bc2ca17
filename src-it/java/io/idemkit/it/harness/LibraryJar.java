package io.idemkit.it.harness;

import java.io.File;
import java.util.Arrays;
import java.util.Objects;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The library as an application ships it: the compiled classes as one jar in {@code WEB-INF/lib},
 * next to the library's runtime dependencies, which the build copies to {@code target/it-lib}.
 */
public final class LibraryJar {

    /** The jar's name inside {@code WEB-INF/lib}. */
    public static final String NAME = "idemkit-jakarta.jar";

    private static final File CLASSES =
            new File(System.getProperty("idemkit.classes", "target/classes"));
    private static final File RUNTIME_DEPENDENCIES =
            new File(System.getProperty("idemkit.it-lib", "target/it-lib"));
    private static final File REDIS_CLIENT =
            new File(System.getProperty("idemkit.it-lib-redis", "target/it-lib-redis"));
    private static final File KAFKA_CLIENT =
            new File(System.getProperty("idemkit.it-lib-kafka", "target/it-lib-kafka"));

    private LibraryJar() {}

    /**
     * @param war the test application
     * @return {@code war}, with the library and its runtime dependencies in {@code WEB-INF/lib}
     */
    public static WebArchive addTo(WebArchive war) {
        war.addAsLibrary(library());
        File[] dependencies =
                Objects.requireNonNullElse(
                        RUNTIME_DEPENDENCIES.listFiles((dir, name) -> name.endsWith(".jar")),
                        new File[0]);
        Arrays.sort(dependencies);
        return war.addAsLibraries(dependencies);
    }

    /**
     * @param war the test application, with the library ({@link #addTo})
     * @return {@code war}, with Jedis and its runtime dependencies in {@code WEB-INF/lib}, as an
     *     application on the Redis store adds them (Jedis is an optional dependency of the
     *     library), which the build copies to {@code target/it-lib-redis}
     */
    public static WebArchive addRedisClient(WebArchive war) {
        return war.addAsLibraries(jars(REDIS_CLIENT, "Redis client"));
    }

    /**
     * @param war the test application
     * @return {@code war}, with the Kafka client and its runtime dependencies in {@code
     *     WEB-INF/lib}, as an application on Open Liberty's {@code liberty-kafka} connector carries
     *     them, which the build copies to {@code target/it-lib-kafka}
     */
    public static WebArchive addKafkaClient(WebArchive war) {
        return war.addAsLibraries(jars(KAFKA_CLIENT, "Kafka client"));
    }

    private static File[] jars(File folder, String what) {
        File[] jars =
                Objects.requireNonNullElse(
                        folder.listFiles((dir, name) -> name.endsWith(".jar")), new File[0]);
        if (jars.length == 0) {
            throw new IllegalStateException(
                    "No " + what + " in " + folder.getAbsolutePath() + ": run mvn verify");
        }
        Arrays.sort(jars);
        return jars;
    }

    /**
     * @param war the test application
     * @return {@code war}, with the library jar alone in {@code WEB-INF/lib}: none of its runtime
     *     dependencies (the MongoDB driver), as an application on the JDBC or in-memory store that
     *     excludes them ships it
     */
    public static WebArchive addAlone(WebArchive war) {
        return war.addAsLibrary(library());
    }

    private static JavaArchive library() {
        if (!new File(CLASSES, "io/idemkit").isDirectory()) {
            throw new IllegalStateException(
                    "No compiled library in " + CLASSES.getAbsolutePath() + ": run mvn verify");
        }
        return ShrinkWrap.create(ExplodedImporter.class, NAME)
                .importDirectory(CLASSES)
                .as(JavaArchive.class);
    }
}
