package io.idemkit.it.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The README's conformance table, generated from the failsafe reports of the build that just ran
 * every runtime's ITs, must be the table the README shows: a vector the README counts as passed
 * passed in this build, and one that passed is counted. It runs in a failsafe execution of its own
 * ({@code conformance-table}), after the ITs of every runtime; in a build that skipped a runtime or
 * ran a subset of the ITs ({@code -Dit.test}) it is skipped, since the reports then describe
 * another build, or none.
 *
 * <p>The vectors are those of the reference's {@code idemkit-conformance.yaml}; each is a test
 * method named after its {@code id} (in snake case, and {@code five_xx} for {@code 5xx}). A surface
 * is "compatible" in the reference's sense on a runtime where every one of its vectors passed on a
 * production backend; of the stores here, that is PostgreSQL.
 */
class ConformanceTableCheck {

    static final String BEGIN = "<!-- conformance-table:begin";
    static final String END = "<!-- conformance-table:end -->";

    /** A surface, with the ids of its vectors in the order of the reference's file. */
    enum Surface {
        HTTP(
                "HTTP",
                List.of(
                        "basic-replay",
                        "payload-mismatch",
                        "concurrent-same-key-exactly-once",
                        "in-flight-wait-then-replay",
                        "in-flight-wait-timeout",
                        "crash-recovery-lease-expiry",
                        "5xx-not-cached-by-default",
                        "cross-tenant-isolation",
                        "missing-key-when-required",
                        "response-headers-preserved",
                        "corrupt-record-treated-as-absent",
                        "body-size-exceeded-bypass")),
        QUEUE(
                "Queue",
                List.of(
                        "queue-at-least-once-dedup",
                        "queue-concurrent-redelivery",
                        "queue-crash-recovery",
                        "queue-lease-shorter-than-visibility",
                        "queue-poison-dlq",
                        "queue-result-bearing-replay")),
        TOOL(
                "Tool call",
                List.of(
                        "tool-retry-dedup",
                        "tool-arg-normalization",
                        "tool-concurrent-calls",
                        "tool-crash-recovery",
                        "tool-unserializable-result-fails-closed",
                        "tool-pickle-opt-in-warns"));

        final String title;
        final List<String> vectors;

        Surface(String title, List<String> vectors) {
            this.title = title;
            this.vectors = vectors;
        }
    }

    /** A runtime, and the folder its failsafe execution writes its reports to. */
    record Runtime(String title, Path reports) {}

    /** A surface on a store, and the IT classes that run its vectors there. */
    record Row(Surface surface, String store, boolean production, List<String> classes) {}

    private static final String MONGO = "MongoDB (mongo-java-server)";

    static final List<Row> ROWS =
            List.of(
                    new Row(
                            Surface.HTTP,
                            "PostgreSQL",
                            true,
                            List.of("HttpJdbcStoreIT", "HttpJdbcAppDataSourceIT")),
                    new Row(
                            Surface.HTTP,
                            "MariaDB",
                            false,
                            List.of("HttpJdbcMariaDbLibertyIT", "HttpJdbcMariaDbIT")),
                    new Row(Surface.HTTP, MONGO, false, List.of("HttpMongoStoreIT")),
                    new Row(Surface.HTTP, "in-memory", false, List.of("HttpMemoryStoreIT")),
                    new Row(
                            Surface.QUEUE,
                            "PostgreSQL",
                            true,
                            List.of("MessageJdbcStoreIT", "MessageArtemisJdbcStoreIT")),
                    new Row(Surface.QUEUE, MONGO, false, List.of("MessageMongoStoreIT")),
                    new Row(
                            Surface.QUEUE,
                            "in-memory",
                            false,
                            List.of("MessageMemoryStoreIT", "MessageArtemisMemoryStoreIT")),
                    new Row(
                            Surface.TOOL,
                            "PostgreSQL",
                            true,
                            List.of("JdbcMethodSurfaceIT", "JdbcAppDataSourceMethodIT")),
                    new Row(Surface.TOOL, "MariaDB", false, List.of("JdbcMariaDbMethodSurfaceIT")),
                    new Row(Surface.TOOL, MONGO, false, List.of("MongoMethodSurfaceIT")),
                    new Row(Surface.TOOL, "in-memory", false, List.of("MethodSurfaceIT")));

    /** What one test did in one report. */
    enum Outcome {
        PASSED,
        SKIPPED,
        FAILED
    }

    @Test
    void readmeTable_isTheTableThisBuildsReportsGive() throws Exception {
        String skipped = System.getProperty("idemkit.conformance.skipped-runtimes", "");
        Assumptions.assumeFalse(
                skipped.contains("true"),
                "a runtime's ITs were skipped in this build (" + skipped + ")");
        Assumptions.assumeFalse(
                Boolean.getBoolean("idemkit.conformance.subset"),
                "this build ran a subset of the ITs (-Dit.test)");

        List<Runtime> runtimes =
                List.of(
                        new Runtime("Open Liberty", reports("liberty")),
                        new Runtime("WildFly", reports("wildfly")),
                        new Runtime("Payara Micro", reports("payara")));
        String generated = table(runtimes);

        assertThat(readmeTable(Path.of("README.md")))
                .as(
                        "The README's conformance table; what this build's reports give is:%n%s",
                        generated)
                .isEqualTo(generated);
    }

    private static Path reports(String runtime) {
        String dir = System.getProperty("idemkit.conformance.reports." + runtime);
        if (dir == null) {
            throw new IllegalStateException(
                    "idemkit.conformance.reports." + runtime + " is not set: see the pom");
        }
        return Path.of(dir);
    }

    /**
     * @return the text between the README's markers, the begin marker's line excluded
     */
    static String readmeTable(Path readme) throws IOException {
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(
                    "README.md has no conformance table between " + BEGIN + " and " + END);
        }
        int afterMarker = text.indexOf('\n', begin) + 1;
        return text.substring(afterMarker, end);
    }

    /**
     * @param id a vector's id
     * @return the name of the test method that runs it
     */
    static String testName(String id) {
        String snake = id.replace('-', '_');
        return snake.startsWith("5xx_") ? "five_xx_" + snake.substring(4) : snake;
    }

    /**
     * @return the table, as Markdown, from the reports of {@code runtimes}
     */
    static String table(List<Runtime> runtimes) throws Exception {
        StringBuilder md = new StringBuilder("| Surface | Store |");
        for (Runtime runtime : runtimes) {
            md.append(' ').append(runtime.title()).append(" |");
        }
        md.append(" Vectors that did not pass |\n|---|---|");
        md.append("---|".repeat(runtimes.size())).append("---|\n");
        Map<Surface, Set<String>> compatible = new EnumMap<>(Surface.class);
        for (Surface surface : Surface.values()) {
            compatible.put(surface, new LinkedHashSet<>());
        }
        for (Row row : ROWS) {
            md.append("| ")
                    .append(row.surface().title)
                    .append(" | ")
                    .append(row.store())
                    .append(" |");
            Set<String> missing = new LinkedHashSet<>();
            for (Runtime runtime : runtimes) {
                List<Map<String, Outcome>> ran = new ArrayList<>();
                for (String itClass : row.classes()) {
                    Map<String, Outcome> tests = read(runtime.reports(), itClass);
                    if (tests.containsValue(Outcome.PASSED)
                            || tests.containsValue(Outcome.FAILED)) {
                        ran.add(tests);
                    }
                }
                if (ran.isEmpty()) {
                    md.append(" – |");
                    continue;
                }
                int passed = 0;
                for (String vector : row.surface().vectors) {
                    if (ran.stream().anyMatch(t -> t.get(testName(vector)) == Outcome.PASSED)) {
                        passed++;
                    } else {
                        missing.add(vector);
                    }
                }
                int all = row.surface().vectors.size();
                md.append(' ').append(passed).append('/').append(all).append(" |");
                if (row.production() && passed == all) {
                    compatible.get(row.surface()).add(runtime.title());
                }
            }
            md.append(' ')
                    .append(missing.isEmpty() ? "–" : "`" + String.join("`, `", missing) + "`")
                    .append(" |\n");
        }
        md.append("\nCompatible in the reference's sense (every vector of the surface passes on a")
                .append(" production backend, here PostgreSQL):\n");
        for (Surface surface : Surface.values()) {
            Set<String> on = compatible.get(surface);
            md.append("- ")
                    .append(surface.title)
                    .append(": ")
                    .append(on.isEmpty() ? "not claimed" : "on " + String.join(", ", on))
                    .append('\n');
        }
        return md.toString();
    }

    /**
     * @return what each test of {@code itClass} did in the report of {@code dir}; empty when there
     *     is no report (the class did not run there)
     */
    static Map<String, Outcome> read(Path dir, String itClass) {
        Map<String, Outcome> tests = new TreeMap<>();
        Path report = report(dir, itClass);
        if (report == null) {
            return tests;
        }
        try {
            NodeList cases =
                    DocumentBuilderFactory.newInstance()
                            .newDocumentBuilder()
                            .parse(report.toFile())
                            .getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element test = (Element) cases.item(i);
                tests.merge(test.getAttribute("name"), outcome(test), ConformanceTableCheck::worse);
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + report, e);
        }
        return tests;
    }

    /**
     * @return the report of the IT class named {@code itClass}, in whichever package of {@code
     *     io.idemkit.it} it lives ({@code TEST-io.idemkit.it.<package>.<itClass>.xml}); null when
     *     there is none
     * @throws IllegalStateException when two packages hold a class of that name, since the table
     *     names classes by their simple names
     */
    static Path report(Path dir, String itClass) {
        if (!Files.isDirectory(dir)) {
            return null;
        }
        String suffix = "." + itClass + ".xml";
        List<Path> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(
                            f -> {
                                String name = f.getFileName().toString();
                                return name.startsWith("TEST-io.idemkit.it.")
                                        && name.endsWith(suffix);
                            })
                    .forEach(found::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        if (found.size() > 1) {
            throw new IllegalStateException(
                    "more than one report for " + itClass + " in " + dir + ": " + found);
        }
        return found.isEmpty() ? null : found.get(0);
    }

    private static Outcome outcome(Element test) {
        if (test.getElementsByTagName("failure").getLength() > 0
                || test.getElementsByTagName("error").getLength() > 0) {
            return Outcome.FAILED;
        }
        return test.getElementsByTagName("skipped").getLength() > 0
                ? Outcome.SKIPPED
                : Outcome.PASSED;
    }

    /** Of two runs of one test in one report, the one that says less for it. */
    private static Outcome worse(Outcome a, Outcome b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
