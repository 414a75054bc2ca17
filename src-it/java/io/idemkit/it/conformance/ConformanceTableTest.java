package io.idemkit.it.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.it.conformance.ConformanceRows.Row;
import io.idemkit.it.conformance.ConformanceRows.Surface;
import io.idemkit.it.conformance.ConformanceTableCheck.Runtime;
import io.idemkit.it.conformance.FailsafeReports.Outcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@link ConformanceTableCheck} turns failsafe reports into the table of docs/conformance.md,
 * on reports this test writes: what counts as passed, and what a vector that does not apply, or
 * that a test not named after it runs, looks like. A plain unit test (surefire), beside the check
 * it tests.
 */
class ConformanceTableTest {

    private static final String PICKLE = "tool-pickle-opt-in-warns";
    private static final String CRASH = "crash-recovery-lease-expiry";

    @TempDir Path reports;

    private Runtime runtime() {
        return new Runtime("Server", reports);
    }

    /** Writes the report of {@code itClass}, in which every vector of {@code surface} passed. */
    private void allPassed(String itClass, Surface surface, Map<String, Outcome> except)
            throws IOException {
        Map<String, Outcome> tests = new LinkedHashMap<>();
        surface.vectors.forEach(v -> tests.put(ConformanceTableCheck.testName(v), Outcome.PASSED));
        tests.putAll(except);
        write(itClass, tests);
    }

    private void write(String itClass, Map<String, Outcome> tests) throws IOException {
        write(reports, itClass, itClass, tests);
    }

    /**
     * Writes a report as failsafe does: in {@code dir}, under the file of {@code reportClass}, the
     * tests of {@code testClass} (a class that has a nested class gets its tests filed under the
     * nested class's report).
     */
    private static void write(
            Path dir, String reportClass, String testClass, Map<String, Outcome> tests)
            throws IOException {
        StringBuilder xml = new StringBuilder("<testsuite>");
        tests.forEach(
                (name, outcome) ->
                        xml.append("<testcase name=\"")
                                .append(name)
                                .append("\" classname=\"io.idemkit.it.somewhere.")
                                .append(testClass)
                                .append("\">")
                                .append(
                                        switch (outcome) {
                                            case PASSED -> "";
                                            case SKIPPED -> "<skipped/>";
                                            case FAILED -> "<failure/>";
                                        })
                                .append("</testcase>"));
        xml.append("</testsuite>");
        Files.writeString(
                dir.resolve("TEST-io.idemkit.it.somewhere." + reportClass + ".xml"),
                xml,
                StandardCharsets.UTF_8);
    }

    @Test
    void everyVectorPassedOnTheProductionRow_isCountedAndClaimed() throws IOException {
        allPassed("ToolIT", Surface.TOOL, Map.of());
        Row row = new Row(Surface.TOOL, "Db", true, List.of("ToolIT"));

        String table = ConformanceTableCheck.table(List.of(runtime()), List.of(row));

        assertThat(table)
                .contains("| Tool call | Db | 6/6 | – |\n")
                .contains("production backend, here Db):\n")
                .contains("- Tool call: with Db on Server\n")
                .doesNotContain("Not applicable");
    }

    @Test
    void vectorThatDoesNotApply_isShownWithItsNote_neverAsPassed_andWithholdsTheClaim()
            throws IOException {
        Map<String, Outcome> tests = new LinkedHashMap<>();
        tests.put(ConformanceTableCheck.testName(PICKLE), Outcome.SKIPPED);
        tests.put("plantedBytes_areRefused", Outcome.PASSED);
        allPassed("ToolIT", Surface.TOOL, tests);
        Row row =
                new Row(Surface.TOOL, "Db", true, List.of("ToolIT"))
                        .notApplicable(PICKLE, "no pickle in Java");

        String table = ConformanceTableCheck.table(List.of(runtime()), List.of(row));

        assertThat(table)
                .contains("| Tool call | Db | 5/6 | `" + PICKLE + "` (n/a, note 1) |\n")
                .contains("\n1. no pickle in Java\n")
                .contains(
                        "- Tool call: not claimed, `"
                                + PICKLE
                                + "` (note 1) does not apply; every other vector passes with"
                                + " Db on Server\n");
    }

    @Test
    void oneReasonForTwoVectors_isOneNote() throws IOException {
        allPassed(
                "MemoryIT",
                Surface.HTTP,
                Map.of(ConformanceTableCheck.testName(CRASH), Outcome.SKIPPED));
        write("QueueIT", Map.of("queue_at_least_once_dedup", Outcome.PASSED));
        Row http =
                new Row(Surface.HTTP, "memory", false, List.of("MemoryIT"))
                        .notApplicable(CRASH, "no claim outlives a crash");
        Row queue =
                new Row(Surface.QUEUE, "memory", false, List.of("QueueIT"))
                        .notApplicable("queue-crash-recovery", "no claim outlives a crash");

        String table = ConformanceTableCheck.table(List.of(runtime()), List.of(http, queue));

        assertThat(table)
                .contains("`" + CRASH + "` (n/a, note 1)")
                .contains("`queue-crash-recovery` (n/a, note 1)")
                .contains("\n1. no claim outlives a crash\n")
                .doesNotContain("\n2. ");
    }

    @Test
    void testNamedAfterAVectorThatDoesNotApply_passing_failsTheCheck() throws IOException {
        allPassed("MemoryIT", Surface.HTTP, Map.of());
        Row row =
                new Row(Surface.HTTP, "memory", false, List.of("MemoryIT"))
                        .notApplicable(CRASH, "no claim outlives a crash");

        assertThatThrownBy(() -> ConformanceTableCheck.table(List.of(runtime()), List.of(row)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("MemoryIT.crash_recovery_lease_expiry passed on Server")
                .hasMessageContaining("declared not applicable on memory");
    }

    @Test
    void vectorRunByAnotherTest_countsThatTestAlone() throws IOException {
        // The store's class has a staged test named after the vector: it is not the one counted.
        allPassed("StoreIT", Surface.HTTP, Map.of());
        write("KillIT", Map.of("serverKilled_runsOnce", Outcome.FAILED));
        Row row =
                new Row(Surface.HTTP, "Store", false, List.of("StoreIT"))
                        .runBy(CRASH, "KillIT", "serverKilled_runsOnce");

        assertThat(ConformanceTableCheck.table(List.of(runtime()), List.of(row)))
                .contains("| HTTP | Store | 11/12 | `" + CRASH + "` |\n");

        write("KillIT", Map.of("serverKilled_runsOnce", Outcome.PASSED));

        assertThat(ConformanceTableCheck.table(List.of(runtime()), List.of(row)))
                .contains("| HTTP | Store | 12/12 | – |\n");
    }

    @Test
    void twoProductionStores_eachIsClaimedOnTheRuntimesWhereItPassedEveryVector()
            throws IOException {
        Path other = reports.resolve("other");
        Files.createDirectories(other);
        allPassed("SqlIT", Surface.HTTP, Map.of());
        allPassed("KvIT", Surface.HTTP, Map.of("basic_replay", Outcome.FAILED));
        Map<String, Outcome> every = new LinkedHashMap<>();
        Surface.HTTP.vectors.forEach(
                v -> every.put(ConformanceTableCheck.testName(v), Outcome.PASSED));
        write(other, "SqlIT", "SqlIT", every);
        write(other, "KvIT", "KvIT", every);
        List<Row> rows =
                List.of(
                        new Row(Surface.HTTP, "Sql", true, List.of("SqlIT")),
                        new Row(Surface.HTTP, "Kv", true, List.of("KvIT")),
                        new Row(Surface.HTTP, "Toy", false, List.of("SqlIT")));

        String table =
                ConformanceTableCheck.table(List.of(runtime(), new Runtime("Other", other)), rows);

        assertThat(table)
                .contains("| HTTP | Kv | 11/12 | 12/12 | `basic-replay` |\n")
                .contains("production backend, here Sql or Kv):\n")
                .contains("- HTTP: with Sql on Server, Other; with Kv on Other\n");
    }

    @Test
    void testsFiledUnderANestedClassesReport_countForTheirOwnClass() throws IOException {
        Map<String, Outcome> every = new LinkedHashMap<>();
        Surface.QUEUE.vectors.forEach(
                v -> every.put(ConformanceTableCheck.testName(v), Outcome.PASSED));
        // As failsafe files a class with a nested class: the class's own report empty, its tests
        // and the nested class's in the nested class's report.
        write(reports, "QueueIT", "QueueIT", Map.of());
        write(reports, "QueueIT$TwoServers", "QueueIT", every);
        Row row = new Row(Surface.QUEUE, "Db", false, List.of("QueueIT"));

        assertThat(ConformanceTableCheck.table(List.of(runtime()), List.of(row)))
                .contains("| Queue | Db | 6/6 |");
    }

    @Test
    void twoClassesOfOneNameInTwoPackages_areRefused() throws IOException {
        write("QueueIT", Map.of("queue_at_least_once_dedup", Outcome.PASSED));
        Files.writeString(
                reports.resolve("TEST-io.idemkit.it.elsewhere.QueueIT.xml"),
                "<testsuite><testcase name=\"queue_at_least_once_dedup\""
                        + " classname=\"io.idemkit.it.elsewhere.QueueIT\"/></testsuite>",
                StandardCharsets.UTF_8);

        assertThatThrownBy(() -> FailsafeReports.read(reports, "QueueIT"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("more than one IT class named QueueIT");
    }

    @Test
    void rowThatDidNotRunOnARuntime_isADash() {
        Row row = new Row(Surface.QUEUE, "Db", false, List.of("AbsentIT"));

        assertThat(ConformanceTableCheck.table(List.of(runtime()), List.of(row)))
                .contains("| Queue | Db | – | – |\n");
    }

    @Test
    void rowSetsAsideOnlyVectorsOfItsSurface_eachOnce() {
        Row row = new Row(Surface.HTTP, "Db", false, List.of("StoreIT"));

        assertThatThrownBy(() -> row.notApplicable(PICKLE, "not an HTTP vector"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                        () ->
                                row.notApplicable(CRASH, "one reason")
                                        .runBy(CRASH, "KillIT", "serverKilled_runsOnce"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theReadmesRows_setAsideThePickleVectorOnEveryToolCallStore() {
        assertThat(ConformanceRows.ROWS)
                .filteredOn(r -> r.surface() == Surface.TOOL)
                .allSatisfy(r -> assertThat(r.notApplicable(PICKLE)).isPresent());
    }
}
