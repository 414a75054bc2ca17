import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the README's "Five minutes: your own WAR" into the files a newcomer would write, so that
 * run.sh can build and deploy them: the snippets are the source, and nothing here restates them.
 *
 * <p>Run with the JDK's single-file launcher: {@code java FiveMinutes.java README.md
 * pom-template.xml OUT PORT}. It writes, under OUT:
 *
 * <ul>
 *   <li>{@code install.sh}: the section's install command, which docs/getting-the-jar.md (beside
 *       the README) must give too;
 *   <li>{@code pom.xml}: the template, a plain WAR project, with the section's dependency in place
 *       of the line {@code <!-- README: the dependency -->};
 *   <li>{@code src/main/java/shop/NAME.java}: each class of the section's Java snippet in a file
 *       of its own, with the snippet's imports and {@code package shop;};
 *   <li>{@code server.xml}: a Liberty server with the section's {@code featureManager}, its HTTP
 *       port PORT on loopback, and no HTTPS port;
 *   <li>{@code call-1.sh}, {@code call-2.sh}, …: each curl of the section, on port PORT instead
 *       of 9080;
 *   <li>{@code scope/}: a project of its own with the scope provider of "Before production" (it
 *       needs MicroProfile JWT, which the five-minute server does not have), for run.sh to
 *       compile only.
 * </ul>
 *
 * A snippet it cannot find, or cannot take apart, is an error that names it: the README changed
 * in a way this check must follow.
 */
public final class FiveMinutes {

    private static final String SECTION = "## Five minutes: your own WAR";
    private static final String GETTING_THE_JAR = "docs/getting-the-jar.md";
    private static final String BEFORE_PRODUCTION = "## Before production";
    private static final String DEPENDENCY_PLACE = "<!-- README: the dependency -->";

    /** What the scope provider snippet needs beside the five-minute WAR's dependencies. */
    private static final String JWT_API =
            "<dependency>\n"
                    + "      <groupId>org.eclipse.microprofile.jwt</groupId>\n"
                    + "      <artifactId>microprofile-jwt-auth-api</artifactId>\n"
                    + "      <version>2.1</version>\n"
                    + "      <scope>provided</scope>\n"
                    + "    </dependency>";
    private static final Pattern FENCE = Pattern.compile("(?ms)^```(\\w+)\\n(.*?)^```$");
    private static final Pattern CLASS_NAME =
            Pattern.compile("\\b(?:class|interface|record|enum)\\s+(\\w+)");

    private record Snippet(String language, String text) {}

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            throw new IllegalArgumentException(
                    "usage: java FiveMinutes.java README.md pom-template.xml OUT PORT");
        }
        String readme = Files.readString(Path.of(args[0]));
        List<Snippet> snippets = snippets(readme, SECTION);
        String template = Files.readString(Path.of(args[1]));
        Path out = Path.of(args[2]);
        int port = Integer.parseInt(args[3]);

        String install = one(snippets, "sh", " install");
        Path readmePath = Path.of(args[0]).toAbsolutePath();
        sameInstall(Files.readString(readmePath.resolveSibling(GETTING_THE_JAR)), install);
        write(out.resolve("install.sh"), install + "\n");

        if (!template.contains(DEPENDENCY_PLACE)) {
            throw new IllegalStateException("the template has no line " + DEPENDENCY_PLACE);
        }
        String dependency = one(snippets, "xml", "<dependency>").strip();
        write(out.resolve("pom.xml"), template.replace(DEPENDENCY_PLACE, dependency));

        for (String[] type : types(one(snippets, "java", "@Idempotent"))) {
            write(out.resolve("src/main/java/shop/" + type[0] + ".java"), type[1]);
        }

        write(
                out.resolve("server.xml"),
                "<server description=\"The README's five-minute path\">\n"
                        + one(snippets, "xml", "<featureManager>")
                        + "\n<httpEndpoint id=\"defaultHttpEndpoint\" host=\"127.0.0.1\""
                        + " httpPort=\""
                        + port
                        + "\" httpsPort=\"-1\"/>\n</server>\n");

        List<Snippet> production = snippets(readme, BEFORE_PRODUCTION);
        write(
                out.resolve("scope/pom.xml"),
                template.replace(DEPENDENCY_PLACE, dependency + "\n    " + JWT_API));
        for (String[] type : types(one(production, "java", "IdempotencyScopeProvider"))) {
            write(out.resolve("scope/src/main/java/shop/" + type[0] + ".java"), type[1]);
        }

        List<String> calls = commands(one(snippets, "sh", "curl "));
        for (int i = 0; i < calls.size(); i++) {
            if (!calls.get(i).contains("localhost:9080/")) {
                throw new IllegalStateException("a curl not on localhost:9080: " + calls.get(i));
            }
            write(
                    out.resolve("call-" + (i + 1) + ".sh"),
                    calls.get(i).replace("localhost:9080/", "localhost:" + port + "/") + "\n");
        }
    }

    /**
     * Fails unless docs/getting-the-jar.md gives the same install command as step 1 of the
     * five-minute path (it quotes it inline, wrapped over lines), so that the one run here is the
     * one both give.
     */
    private static void sameInstall(String gettingTheJar, String install) {
        String command = install.replaceAll("#.*", "").strip();
        if (!gettingTheJar.replaceAll("\\s+", " ").contains("`" + command + "`")) {
            throw new IllegalStateException(
                    GETTING_THE_JAR
                            + " does not give the five-minute path's install command `"
                            + command
                            + "`");
        }
    }

    /** The fenced blocks of the README's section {@code heading}, in order. */
    private static List<Snippet> snippets(String readme, String heading) {
        int start = readme.indexOf("\n" + heading + "\n");
        if (start < 0) {
            throw new IllegalStateException("the README has no section \"" + heading + "\"");
        }
        int end = readme.indexOf("\n## ", start + heading.length());
        String section = readme.substring(start, end < 0 ? readme.length() : end);
        List<Snippet> found = new ArrayList<>();
        Matcher m = FENCE.matcher(section);
        while (m.find()) {
            found.add(new Snippet(m.group(1), m.group(2)));
        }
        return found;
    }

    /** The one block of {@code language} that contains {@code marker}. */
    private static String one(List<Snippet> snippets, String language, String marker) {
        List<String> matching =
                snippets.stream()
                        .filter(s -> s.language().equals(language) && s.text().contains(marker))
                        .map(Snippet::text)
                        .toList();
        if (matching.size() != 1) {
            throw new IllegalStateException(
                    "expected one ```"
                            + language
                            + " block with \""
                            + marker
                            + "\" in its section of the README, found "
                            + matching.size());
        }
        return matching.get(0);
    }

    /**
     * The top-level types of a Java snippet, each as {name, source}: the source is the package
     * line, the snippet's imports, and the type, which runs from its first line after a blank
     * line to the next blank line outside a body.
     */
    private static List<String[]> types(String java) {
        StringBuilder imports = new StringBuilder();
        List<StringBuilder> bodies = new ArrayList<>();
        StringBuilder current = null;
        int depth = 0;
        for (String line : java.split("\n", -1)) {
            if (depth == 0 && line.startsWith("import ")) {
                imports.append(line).append('\n');
            } else if (depth == 0 && line.isBlank()) {
                current = null;
            } else {
                if (current == null) {
                    current = new StringBuilder();
                    bodies.add(current);
                }
                current.append(line).append('\n');
                depth += count(line, '{') - count(line, '}');
            }
        }
        List<String[]> types = new ArrayList<>();
        for (StringBuilder body : bodies) {
            Matcher name = CLASS_NAME.matcher(body);
            if (!name.find()) {
                throw new IllegalStateException("no type declared in:\n" + body);
            }
            types.add(
                    new String[] {
                        name.group(1), "package shop;\n\n" + imports + "\n" + body
                    });
        }
        if (types.isEmpty()) {
            throw new IllegalStateException("the Java snippet declares no type");
        }
        return types;
    }

    private static int count(String line, char c) {
        return (int) line.chars().filter(ch -> ch == c).count();
    }

    /** The shell commands of a block: continuation lines joined, comments and blanks dropped. */
    private static List<String> commands(String sh) {
        List<String> commands = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : sh.split("\n")) {
            String trimmed = line.strip();
            if (current.isEmpty() && (trimmed.isEmpty() || trimmed.startsWith("#"))) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
            } else {
                commands.add(current.append(trimmed).toString());
                current.setLength(0);
            }
        }
        return commands;
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
