package io.idemkit.it.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.conformance.ConformanceRows.NotApplicable;
import io.idemkit.it.conformance.ConformanceRows.Row;
import io.idemkit.it.conformance.ConformanceRows.RunBy;
import io.idemkit.it.conformance.ConformanceRows.Surface;
import io.idemkit.it.conformance.FailsafeReports.Outcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The conformance table, generated from the failsafe reports of the build that just ran every
 * runtime's ITs, must be the table docs/conformance.md shows: a vector the page counts as passed
 * passed in this build, and one that passed is counted. It runs in a failsafe execution of its own
 * ({@code conformance-table}), after the ITs of every runtime; in a build that skipped a runtime or
 * ran a subset of the ITs ({@code -Dit.test}) it is skipped, since the reports then describe
 * another build, or none.
 *
 * <p>The vectors are those of the reference's {@code idemkit-conformance.yaml}; each is a test
 * method named after its {@code id} (in snake case, and {@code five_xx} for {@code 5xx}), unless
 * its row ({@link ConformanceRows}) names the test that runs it ({@link RunBy}). A vector that
 * cannot run on a row's store as the reference means it is declared so there, with its reason
 * ({@link NotApplicable}): the table shows it as not applicable, with the reason in a note, never
 * as passed, and the check fails when a test named after it passes there after all. A surface is
 * "compatible" in the reference's sense on a runtime where every one of its vectors passed on a
 * production backend; of the stores here, those are PostgreSQL and Redis (the rows {@link
 * ConformanceRows} marks production), and the table names the runtimes each of them passed on. A
 * vector that does not apply on a production backend withholds the claim, and the table says so.
 */
class ConformanceTableCheck {

    /** The page that shows the table, from the project's root. */
    static final String PAGE = "docs/conformance.md";

    static final String BEGIN = "<!-- conformance-table:begin";
    static final String END = "<!-- conformance-table:end -->";

    /** A runtime, and the folder its failsafe execution writes its reports to. */
    record Runtime(String title, Path reports) {}

    @Test
    void conformancePageTable_isTheTableThisBuildsReportsGive() throws Exception {
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

        assertThat(pageTable(Path.of(PAGE)))
                .as(
                        "The conformance table of "
                                + PAGE
                                + "; what this build's reports give is:%n%s",
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
     * @return the text between the page's markers, the begin marker's line excluded
     */
    static String pageTable(Path page) throws IOException {
        String text = Files.readString(page, StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(
                    page + " has no conformance table between " + BEGIN + " and " + END);
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
    static String table(List<Runtime> runtimes) {
        return table(runtimes, ConformanceRows.ROWS);
    }

    /**
     * @return the table of {@code rows}, as Markdown, from the reports of {@code runtimes}
     * @throws IllegalStateException when a test named after a vector that a row declares not
     *     applicable passed there
     */
    static String table(List<Runtime> runtimes, List<Row> rows) {
        StringBuilder md = new StringBuilder("| Surface | Store |");
        for (Runtime runtime : runtimes) {
            md.append(' ').append(runtime.title()).append(" |");
        }
        md.append(" Vectors that did not pass |\n|---|---|");
        md.append("---|".repeat(runtimes.size())).append("---|\n");
        // Per surface, each production store and the runtimes where it passed every vector.
        Map<Surface, Map<String, Set<String>>> compatible = new EnumMap<>(Surface.class);
        Map<Surface, Set<NotApplicable>> notApplicableThere = new EnumMap<>(Surface.class);
        Set<String> productionStores = new LinkedHashSet<>();
        for (Surface surface : Surface.values()) {
            compatible.put(surface, new LinkedHashMap<>());
            notApplicableThere.put(surface, new LinkedHashSet<>());
        }
        List<String> notes = new ArrayList<>();
        for (Row row : rows) {
            md.append("| ")
                    .append(row.surface().title)
                    .append(" | ")
                    .append(row.store())
                    .append(" |");
            Set<String> missing = new LinkedHashSet<>();
            if (row.production()) {
                productionStores.add(row.store());
                compatible.get(row.surface()).putIfAbsent(row.store(), new LinkedHashSet<>());
            }
            for (Runtime runtime : runtimes) {
                Map<String, Map<String, Outcome>> ran = new LinkedHashMap<>();
                for (String itClass : row.classes()) {
                    Map<String, Outcome> tests = FailsafeReports.read(runtime.reports(), itClass);
                    if (tests.containsValue(Outcome.PASSED)
                            || tests.containsValue(Outcome.FAILED)) {
                        ran.put(itClass, tests);
                    }
                }
                if (ran.isEmpty()) {
                    md.append(" – |");
                    continue;
                }
                int passed = 0;
                for (String vector : row.surface().vectors) {
                    if (row.notApplicable(vector).isPresent()) {
                        refuseAPass(row, vector, runtime, ran);
                    } else if (passed(row, vector, runtime, ran)) {
                        passed++;
                    } else {
                        missing.add(vector);
                    }
                }
                int all = row.surface().vectors.size();
                md.append(' ').append(passed).append('/').append(all).append(" |");
                if (row.production() && passed == all - row.notApplicable().size()) {
                    compatible.get(row.surface()).get(row.store()).add(runtime.title());
                }
            }
            if (row.production()) {
                notApplicableThere.get(row.surface()).addAll(row.notApplicable());
            }
            md.append(' ').append(notPassed(row, missing, notes)).append(" |\n");
        }
        if (!notes.isEmpty()) {
            md.append("\nNot applicable (n/a): the vector cannot run on that store as the")
                    .append(" reference means it, and is never counted as passed.\n");
            for (int i = 0; i < notes.size(); i++) {
                md.append(i + 1).append(". ").append(notes.get(i)).append('\n');
            }
        }
        md.append("\nCompatible in the reference's sense (every vector of the surface passes on a")
                .append(" production backend, here ")
                .append(String.join(" or ", productionStores))
                .append("):\n");
        for (Surface surface : Surface.values()) {
            md.append("- ")
                    .append(surface.title)
                    .append(": ")
                    .append(
                            compatibility(
                                    compatible.get(surface),
                                    notApplicableThere.get(surface),
                                    notes))
                    .append('\n');
        }
        return md.toString();
    }

    /**
     * @return the row's last cell: the vectors it does not count as passed, in the order of its
     *     surface, each that does not apply with the number of the note that says why
     */
    private static String notPassed(Row row, Set<String> missing, List<String> notes) {
        List<String> cell = new ArrayList<>();
        for (String vector : row.surface().vectors) {
            Optional<NotApplicable> notApplicable = row.notApplicable(vector);
            if (notApplicable.isPresent()) {
                cell.add("`" + vector + "` (n/a, note " + note(notes, notApplicable.get()) + ")");
            } else if (missing.contains(vector)) {
                cell.add("`" + vector + "`");
            }
        }
        return cell.isEmpty() ? "–" : String.join(", ", cell);
    }

    /**
     * @param stores each production store of the surface, with the runtimes where its row passed
     *     every vector that applies
     * @param notApplicable the vectors that do not apply on the surface's production rows
     * @return what the table claims of the surface: no compatibility where a vector does not apply
     */
    private static String compatibility(
            Map<String, Set<String>> stores, Set<NotApplicable> notApplicable, List<String> notes) {
        List<String> passed = new ArrayList<>();
        stores.forEach(
                (store, runtimes) -> {
                    if (!runtimes.isEmpty()) {
                        passed.add("with " + store + " on " + String.join(", ", runtimes));
                    }
                });
        String on = String.join("; ", passed);
        if (notApplicable.isEmpty()) {
            return on.isEmpty() ? "not claimed" : on;
        }
        List<String> vectors = new ArrayList<>();
        for (NotApplicable n : notApplicable) {
            vectors.add("`" + n.vector() + "` (note " + note(notes, n) + ")");
        }
        String claim =
                "not claimed, "
                        + String.join(", ", vectors)
                        + (vectors.size() == 1 ? " does" : " do")
                        + " not apply";
        return on.isEmpty() ? claim : claim + "; every other vector passes " + on;
    }

    /**
     * @return whether the test that runs {@code vector} on {@code row}'s store passed on {@code
     *     runtime}: the one the row names for it, else one named after it in a class that ran
     */
    private static boolean passed(
            Row row, String vector, Runtime runtime, Map<String, Map<String, Outcome>> ran) {
        for (RunBy by : row.runBy()) {
            if (by.vector().equals(vector)) {
                return FailsafeReports.read(runtime.reports(), by.itClass()).get(by.method())
                        == Outcome.PASSED;
            }
        }
        return ran.values().stream().anyMatch(t -> t.get(testName(vector)) == Outcome.PASSED);
    }

    /** A vector declared not applicable whose test passes there is a contradiction to settle. */
    private static void refuseAPass(
            Row row, String vector, Runtime runtime, Map<String, Map<String, Outcome>> ran) {
        ran.forEach(
                (itClass, tests) -> {
                    if (tests.get(testName(vector)) == Outcome.PASSED) {
                        throw new IllegalStateException(
                                itClass
                                        + "."
                                        + testName(vector)
                                        + " passed on "
                                        + runtime.title()
                                        + ", but "
                                        + vector
                                        + " is declared not applicable on "
                                        + row.store()
                                        + ": count it (drop the declaration), or name the test"
                                        + " after what it shows");
                    }
                });
    }

    /**
     * @return the number of the note that gives {@code notApplicable}'s reason, a new one the first
     *     time the reason is given
     */
    private static int note(List<String> notes, NotApplicable notApplicable) {
        int index = notes.indexOf(notApplicable.reason());
        if (index < 0) {
            notes.add(notApplicable.reason());
            index = notes.size() - 1;
        }
        return index + 1;
    }
}
