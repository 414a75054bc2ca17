package io.idemkit.it.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** What the failsafe reports of one runtime say each test of an IT class did. */
final class FailsafeReports {

    private FailsafeReports() {}

    /** What one test did in one report. */
    enum Outcome {
        PASSED,
        SKIPPED,
        FAILED
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
                tests.merge(test.getAttribute("name"), outcome(test), FailsafeReports::worse);
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
