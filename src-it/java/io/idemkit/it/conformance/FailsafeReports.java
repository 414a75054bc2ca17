package io.idemkit.it.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * What the failsafe reports of one runtime say each test of an IT class did, read from every report
 * of the folder by each test's {@code classname}: failsafe files the tests of a class that has a
 * {@code @Nested} class under a nested class's report, and leaves the class's own report empty, so
 * a class's report file alone can miss its tests.
 */
final class FailsafeReports {

    /** The last index of each folder, with the listing it was read from. */
    private static final Map<Path, Indexed> INDEXES = new ConcurrentHashMap<>();

    private FailsafeReports() {}

    /** What one test did in one report. */
    enum Outcome {
        PASSED,
        SKIPPED,
        FAILED
    }

    /**
     * @param dir a runtime's failsafe reports
     * @param itClass an IT class's simple name; the tests of its nested classes count as its own
     * @return what each test of {@code itClass} did; empty when none ran there
     * @throws IllegalStateException when two packages hold a class of that name, since the table
     *     names classes by their simple names
     */
    static Map<String, Outcome> read(Path dir, String itClass) {
        Map<String, Map<String, Outcome>> byClass = index(dir).getOrDefault(itClass, Map.of());
        if (byClass.size() > 1) {
            throw new IllegalStateException(
                    "more than one IT class named "
                            + itClass
                            + " in "
                            + dir
                            + ": "
                            + byClass.keySet());
        }
        return byClass.isEmpty()
                ? new TreeMap<>()
                : new TreeMap<>(byClass.values().iterator().next());
    }

    /**
     * @return the tests of every report in {@code dir}: by the simple name of their outer class,
     *     then by that class's full name, then by test name
     */
    private static Map<String, Map<String, Map<String, Outcome>>> index(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Map.of();
        }
        List<Path> reports;
        try (Stream<Path> files = Files.list(dir)) {
            reports =
                    files.filter(f -> f.getFileName().toString().startsWith("TEST-"))
                            .filter(f -> f.getFileName().toString().endsWith(".xml"))
                            .sorted()
                            .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        String listing = listing(reports);
        Indexed last = INDEXES.get(dir);
        if (last != null && last.listing().equals(listing)) {
            return last.tests();
        }
        Map<String, Map<String, Map<String, Outcome>>> tests = new TreeMap<>();
        for (Path report : reports) {
            readInto(report, tests);
        }
        INDEXES.put(dir, new Indexed(listing, tests));
        return tests;
    }

    /** The names, sizes and times of {@code reports}: a report written again changes it. */
    private static String listing(List<Path> reports) {
        StringBuilder listing = new StringBuilder();
        for (Path report : reports) {
            try {
                listing.append(report.getFileName())
                        .append(' ')
                        .append(Files.size(report))
                        .append(' ')
                        .append(Files.getLastModifiedTime(report).toMillis())
                        .append('\n');
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + report, e);
            }
        }
        return listing.toString();
    }

    private record Indexed(String listing, Map<String, Map<String, Map<String, Outcome>>> tests) {}

    private static void readInto(
            Path report, Map<String, Map<String, Map<String, Outcome>>> tests) {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        try (InputStream in = Files.newInputStream(report)) {
            XMLStreamReader xml = factory.createXMLStreamReader(in);
            String className = null;
            String name = null;
            Outcome outcome = null;
            while (xml.hasNext()) {
                int event = xml.next();
                if (event == XMLStreamReader.START_ELEMENT) {
                    switch (xml.getLocalName()) {
                        case "testcase" -> {
                            className = xml.getAttributeValue(null, "classname");
                            name = xml.getAttributeValue(null, "name");
                            outcome = Outcome.PASSED;
                        }
                        case "failure", "error" -> outcome = Outcome.FAILED;
                        case "skipped" -> outcome = worse(outcome, Outcome.SKIPPED);
                        default -> {}
                    }
                } else if (event == XMLStreamReader.END_ELEMENT
                        && xml.getLocalName().equals("testcase")
                        && className != null) {
                    String outer = className.split("\\$", 2)[0];
                    tests.computeIfAbsent(
                                    outer.substring(outer.lastIndexOf('.') + 1),
                                    c -> new TreeMap<>())
                            .computeIfAbsent(outer, c -> new TreeMap<>())
                            .merge(name, outcome, FailsafeReports::worse);
                    className = null;
                }
            }
        } catch (IOException | XMLStreamException e) {
            throw new IllegalStateException("cannot read " + report, e);
        }
    }

    /** Of two runs of one test, the one that says less for it. */
    private static Outcome worse(Outcome a, Outcome b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
