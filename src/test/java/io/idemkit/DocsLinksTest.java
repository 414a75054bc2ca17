package io.idemkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of the documentation a reader follows resolves: README.md, CONTRIBUTING.md,
 * CHANGELOG.md, docs/*.md and the demo's and benchmarks' READMEs. A link to a file that does not
 * exist fails, and so does a {@code #anchor} that no heading of its target gives, by GitHub's rule:
 * the heading's text in lower case, each space a {@code -}, every punctuation mark but {@code -}
 * and {@code _} removed, and {@code -1}, {@code -2}, … after a heading met before. Links inside
 * code (fenced blocks and {@code `spans`}) are text, not links; absolute URLs are not fetched.
 *
 * <p>No page of docs/ nor the README has two headings of the same text at the same level: their
 * anchors would be the same but for GitHub's {@code -1}, a link to the section would reach the
 * first only, and a reader would meet the section twice (a merge once left four sections of
 * docs/jdbc-store.md twice over, each copy with text the other lacked).
 */
class DocsLinksTest {

    private static final Pattern LINK =
            Pattern.compile("\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR =
            Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);
    private static final Pattern INLINE_CODE = Pattern.compile("`+[^`]*`+");
    private static final Pattern MD_LINK_TEXT = Pattern.compile("\\[([^\\]]*)\\]\\([^)]*\\)");

    private final Map<Path, Set<String>> anchorsByFile = new HashMap<>();

    @Test
    void everyRelativeLinkAndAnchorOfTheDocumentation_resolves() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        List<String> broken = brokenLinks(root, documentation(root));
        assertThat(broken).as("broken links in the documentation").isEmpty();
    }

    @Test
    void theDocumentationIsWhatItShouldBe_andTheIndexListsEveryPage() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        assertThat(documentation(root))
                .contains(
                        root.resolve("README.md"),
                        root.resolve("CHANGELOG.md"),
                        root.resolve("docs/index.md"));
        String index = Files.readString(root.resolve("docs/index.md"), StandardCharsets.UTF_8);
        try (Stream<Path> pages = Files.list(root.resolve("docs"))) {
            assertThat(pages.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".md")))
                    .filteredOn(n -> !n.equals("index.md"))
                    .allSatisfy(
                            n -> assertThat(index).as("docs/index.md").contains("](" + n + ")"));
        }
    }

    @Test
    void noPageOfTheDocumentation_hasTwoHeadingsOfTheSameTextAtTheSameLevel() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        List<String> duplicates = new ArrayList<>();
        for (Path file : documentation(root)) {
            String name = root.relativize(file).toString().replace('\\', '/');
            if (name.equals("README.md") || name.startsWith("docs/")) {
                duplicates.addAll(duplicateHeadings(root, file));
            }
        }
        assertThat(duplicates).as("headings given twice (one section, one anchor each)").isEmpty();
    }

    @Test
    void sameHeadingAtTheSameLevel_isReported_notAtAnotherLevelNorInCode(@TempDir Path dir)
            throws IOException {
        Files.writeString(
                dir.resolve("a.md"),
                "# Page\n\n## The table\n\n### Notes\n\n## Notes\n\n```\n## The table\n```\n\n"
                        + "## The `table`\n\n## The table ##\n");

        assertThat(duplicateHeadings(dir, dir.resolve("a.md")))
                .containsExactly(
                        "a.md:13: ## The `table` (the same heading as line 3)",
                        "a.md:15: ## The table ## (the same heading as line 3)");
    }

    @Test
    void theReadme_isReadInTenMinutes_atMost300Lines() throws IOException {
        assertThat(Files.readAllLines(Path.of("README.md"), StandardCharsets.UTF_8))
                .as("README.md: the detail belongs in docs/ (docs/index.md)")
                .hasSizeLessThanOrEqualTo(300);
    }

    @Test
    void missingFileAndMissingAnchor_areReported(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("docs"));
        Files.writeString(
                dir.resolve("docs/a.md"),
                "# Status codes, exceptions and what the client should do\n\n"
                        + "## Health: the readiness check `idemkit-store`\n\n## Notes\n\n## Notes\n");
        Files.writeString(
                dir.resolve("README.md"),
                "[ok](docs/a.md#status-codes-exceptions-and-what-the-client-should-do)\n"
                        + "[ok](docs/a.md#health-the-readiness-check-idemkit-store)"
                        + " [ok](docs/a.md#notes-1) [ok](#top) [web](https://example.com/x)\n"
                        + "# Top\n"
                        + "`[in code](nowhere.md)`\n```\n[fenced](nowhere.md)\n```\n"
                        + "[gone](docs/b.md) [no anchor](docs/a.md#status)"
                        + " [third notes](docs/a.md#notes-2)\n");

        List<String> broken = brokenLinks(dir, List.of(dir.resolve("README.md")));

        assertThat(broken)
                .containsExactly(
                        "README.md:8: docs/b.md (no such file)",
                        "README.md:8: docs/a.md#status (no such heading)",
                        "README.md:8: docs/a.md#notes-2 (no such heading)");
    }

    @Test
    void anchor_followsGitHubsRule() {
        assertThat(anchor("Five minutes: your own WAR")).isEqualTo("five-minutes-your-own-war");
        assertThat(anchor("C14. The calling side: keys for the requests an application sends"))
                .isEqualTo("c14-the-calling-side-keys-for-the-requests-an-application-sends");
        assertThat(anchor("The `idemkit_records` table — in [short](x.md)"))
                .isEqualTo("the-idemkit_records-table--in-short");
        assertThat(anchor("Wake-ups across nodes")).isEqualTo("wake-ups-across-nodes");
    }

    /** README.md, CONTRIBUTING.md, CHANGELOG.md, docs/*.md and the READMEs under src. */
    private static List<Path> documentation(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String name :
                List.of(
                        "README.md",
                        "CONTRIBUTING.md",
                        "CHANGELOG.md",
                        "src/demo/README.md",
                        "src/bench/README.md")) {
            if (Files.exists(root.resolve(name))) {
                files.add(root.resolve(name));
            }
        }
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        return files;
    }

    private List<String> brokenLinks(Path root, List<Path> files) throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.stripLeading().startsWith("```")) {
                    fenced = !fenced;
                    continue;
                }
                if (fenced) {
                    continue;
                }
                Matcher m = LINK.matcher(INLINE_CODE.matcher(line).replaceAll(""));
                while (m.find()) {
                    String problem = problem(file, m.group(1));
                    if (problem != null) {
                        broken.add(
                                root.relativize(file)
                                        + ":"
                                        + (i + 1)
                                        + ": "
                                        + m.group(1)
                                        + " ("
                                        + problem
                                        + ")");
                    }
                }
            }
        }
        return broken;
    }

    /**
     * @return what is wrong with {@code target} as a link in {@code file}, or null if nothing
     */
    private String problem(Path file, String target) throws IOException {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return null; // https:, mailto:
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (hash < 0 || !resolved.toString().endsWith(".md")) {
            return null;
        }
        return anchors(resolved).contains(target.substring(hash + 1)) ? null : "no such heading";
    }

    private Set<String> anchors(Path file) throws IOException {
        Set<String> known = anchorsByFile.get(file);
        if (known != null) {
            return known;
        }
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                anchors.add(html.group(1));
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String base = anchor(h.group(2));
                int n = seen.merge(base, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? base : base + "-" + n);
            }
        }
        anchorsByFile.put(file, anchors);
        return anchors;
    }

    /**
     * @return each heading of {@code file} outside fenced code whose level and anchor an earlier
     *     heading already has, as {@code file:line: heading (the same heading as line n)}
     */
    private static List<String> duplicateHeadings(Path root, Path file) throws IOException {
        List<String> duplicates = new ArrayList<>();
        Map<String, Integer> firstLine = new HashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        boolean fenced = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (fenced || !h.matches()) {
                continue;
            }
            String levelAndAnchor = h.group(1).length() + " " + anchor(h.group(2));
            Integer first = firstLine.putIfAbsent(levelAndAnchor, i + 1);
            if (first != null) {
                duplicates.add(
                        root.relativize(file).toString().replace('\\', '/')
                                + ":"
                                + (i + 1)
                                + ": "
                                + line
                                + " (the same heading as line "
                                + first
                                + ")");
            }
        }
        return duplicates;
    }

    /** GitHub's anchor of a heading's Markdown text. */
    static String anchor(String heading) {
        String text = MD_LINK_TEXT.matcher(heading).replaceAll("$1");
        return text.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}\\p{M}_\\- ]", "")
                .replace(' ', '-');
    }
}
