package io.idemkit.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java snippet of the README and of {@code docs/} compiles against the library, so that what
 * a reader copies is what the code takes: a renamed class, method or annotation member fails the
 * build, not the reader.
 *
 * <p>A snippet is compiled in a class that extends {@link SnippetWorld}, which declares the
 * application's own types and the fields snippets use without declaring them. Its imports come
 * first (a snippet without imports gets those of the API packages, Jakarta EE and MicroProfile that
 * a reader would add); of the rest, each paragraph (lines between blank ones) that declares
 * something (a type, a method, a field: it starts with an annotation, a modifier, {@code void}, or
 * a type and a name) is a member of that class, and every other paragraph is a statement of one
 * method. A body elided as {@code ...} or {@code …} throws. A snippet that is a sketch, not code to
 * copy, says why in an HTML comment on the line before its fence, {@code <!-- not compiled: the
 * reason -->}.
 */
class DocsSnippetsTest {

    private static final Pattern FENCE = Pattern.compile("(?ms)^```java\\n(.*?)^```$");
    private static final String NOT_COMPILED = "<!-- not compiled: ";
    private static final Pattern MEMBER =
            Pattern.compile(
                    "^(@|public |protected |private |static |final |abstract |void |class |"
                            + "interface |record |enum |[A-Z][\\w<>,. ?\\[\\]]* \\w+\\s*(;|=|\\())");
    private static final List<String> IMPORTS =
            List.of(
                    "io.idemkit.*",
                    "io.idemkit.spi.*",
                    "io.idemkit.client.*",
                    "io.idemkit.admin.*",
                    "io.idemkit.admin.IdempotencyAdmin.*",
                    "io.idemkit.rest.IdempotencyOpenApiFilter",
                    "io.idemkit.docs.SnippetWorld.*",
                    "jakarta.annotation.*",
                    "jakarta.ejb.*",
                    "jakarta.enterprise.context.*",
                    "jakarta.enterprise.event.*",
                    "jakarta.enterprise.inject.*",
                    "jakarta.inject.*",
                    "jakarta.interceptor.*",
                    "jakarta.jms.*",
                    "jakarta.json.*",
                    "jakarta.ws.rs.*",
                    "jakarta.ws.rs.client.*",
                    "jakarta.ws.rs.core.*",
                    "org.eclipse.microprofile.jwt.*",
                    "org.eclipse.microprofile.openapi.*",
                    "org.eclipse.microprofile.openapi.models.*",
                    "org.eclipse.microprofile.rest.client.annotation.*",
                    "org.eclipse.microprofile.rest.client.inject.*",
                    "io.github.resilience4j.retry.Retry",
                    "java.io.*",
                    "java.net.*",
                    "java.nio.charset.*",
                    "java.time.*",
                    "java.util.Optional",
                    "java.util.List",
                    "java.util.regex.*");

    /** A snippet of a page, at its line. */
    record Snippet(Path page, int line, String code) {
        String className() {
            String name = page.getFileName().toString().replaceAll("\\W", "_");
            return "Snippet_" + name + "_" + line;
        }
    }

    @Test
    void everySnippetCompiles(@TempDir Path classes) throws IOException {
        List<Snippet> snippets = snippets();
        List<JavaFileObject> sources = new ArrayList<>();
        for (Snippet snippet : snippets) {
            sources.add(source(snippet.className(), unit(snippet)));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StringWriter out = new StringWriter();
        boolean compiled;
        try (StandardJavaFileManager files =
                javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            compiled =
                    javac.getTask(
                                    out,
                                    files,
                                    diagnostics,
                                    List.of(
                                            "-proc:none",
                                            "--release",
                                            "17",
                                            "-classpath",
                                            System.getProperty("java.class.path"),
                                            "-d",
                                            classes.toString()),
                                    null,
                                    sources)
                            .call();
        }
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                errors.add(where(snippets, d) + ": " + d.getMessage(Locale.ROOT));
            }
        }
        assertThat(errors).as("the snippets' compile errors").isEmpty();
        assertThat(compiled).as(out.toString()).isTrue();
        assertThat(snippets).as("snippets found").hasSizeGreaterThan(15);
    }

    /** Names the page and the snippet's line an error is in. */
    private static String where(List<Snippet> snippets, Diagnostic<? extends JavaFileObject> d) {
        if (d.getSource() == null) {
            return "javac";
        }
        for (Snippet s : snippets) {
            if (d.getSource().getName().contains(s.className())) {
                return s.page() + " (the snippet at line " + s.line() + ")";
            }
        }
        return d.getSource().getName();
    }

    /** The Java snippets of README.md and docs/*.md, but those that say they are not compiled. */
    static List<Snippet> snippets() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(Path.of("README.md"));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<Snippet> snippets = new ArrayList<>();
        for (Path page : pages) {
            String text = Files.readString(page, StandardCharsets.UTF_8);
            Matcher fence = FENCE.matcher(text);
            while (fence.find()) {
                String before = text.substring(0, fence.start()).stripTrailing();
                String lastLine = before.substring(before.lastIndexOf('\n') + 1);
                if (lastLine.startsWith(NOT_COMPILED)) {
                    continue;
                }
                int line =
                        (int)
                                        text.substring(0, fence.start())
                                                .chars()
                                                .filter(c -> c == '\n')
                                                .count()
                                + 1;
                snippets.add(new Snippet(page, line, fence.group(1)));
            }
        }
        return snippets;
    }

    /**
     * The snippet as a compilation unit: its imports, then a class of its members and statements.
     */
    static String unit(Snippet snippet) {
        StringBuilder imports = new StringBuilder("package snippets;\n");
        // A snippet with imports of its own is meant whole: it is compiled with them only.
        boolean own = snippet.code().lines().anyMatch(line -> line.startsWith("import "));
        for (String name : own ? List.of("io.idemkit.docs.SnippetWorld.*") : IMPORTS) {
            imports.append("import ").append(name).append(";\n");
        }
        StringBuilder members = new StringBuilder();
        StringBuilder statements = new StringBuilder();
        String code = elided(snippet.code());
        for (String paragraph : code.split("\\n\\s*\\n")) {
            StringBuilder rest = new StringBuilder();
            for (String line : paragraph.split("\\n")) {
                if (line.startsWith("import ")) {
                    imports.append(line).append('\n');
                } else {
                    rest.append(line).append('\n');
                }
            }
            String part = rest.toString();
            if (part.isBlank()) {
                continue;
            }
            (declares(part) ? members : statements).append(part).append('\n');
        }
        String returns = statements.indexOf("return ") >= 0 ? "" : "return null;\n";
        return imports
                + "public class "
                + snippet.className()
                + " extends io.idemkit.docs.SnippetWorld {\n"
                + members
                + "Object run() throws Exception {\n"
                + statements
                + returns
                + "}\n}\n";
    }

    /**
     * @return whether each line of {@code paragraph} that starts at the margin (but a closing brace
     *     or a comment) starts a declaration
     */
    private static boolean declares(String paragraph) {
        for (String line : paragraph.split("\\n")) {
            if (line.isBlank()
                    || Character.isWhitespace(line.charAt(0))
                    || line.startsWith("}")
                    || line.startsWith("//")) {
                continue;
            }
            if (!MEMBER.matcher(line).find()) {
                return false;
            }
        }
        return true;
    }

    /** A body elided as {@code ...} or {@code …}, as one that throws. */
    private static String elided(String code) {
        return code.replaceAll(
                        "\\{ *(\\.\\.\\.|…) *\\}", "{ throw new UnsupportedOperationException(); }")
                .replaceAll(
                        "(?m)^(\\s*)(\\.\\.\\.|…)(.*)$",
                        "$1throw new UnsupportedOperationException(); //$3");
    }

    private static JavaFileObject source(String className, String code) {
        return new SimpleJavaFileObject(
                URI.create("string:///snippets/" + className + ".java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return code;
            }
        };
    }
}
