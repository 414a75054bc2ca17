package io.idemkit.core.hash;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The fields of a JSON request body that make up the request, so that only they enter its
 * fingerprint (contract C6.11): the declarative form of the reference's {@code body_fingerprint}
 * callback (its §4.5, §5.1), with the field paths of its {@code key_fields} selector.
 *
 * <p>A path names a member of the body's top-level object, or one inside it through objects, with
 * dots: {@code amount}, {@code order.id}. The selection of a body is an object whose members are
 * the paths as written, each with the value found there (an array or object whole), or {@code null}
 * where a member on the way is missing or is not an object; written in the canonical JSON of {@link
 * CanonicalJson}. The reference gives the same bytes for the callback
 *
 * <pre>
 * def body_fingerprint(body, content_type):
 *     data = json.loads(body)
 *     selected = {path: _resolve_path(data, path) for path in paths}
 *     return json.dumps(selected, sort_keys=True, separators=(",", ":"),
 *                       ensure_ascii=False).encode()
 * </pre>
 *
 * <p>and fingerprints them as an opaque body, without a content type ({@link Fingerprint#forHttp}
 * with {@code null}). A body that is not a JSON object has no selection: it is fingerprinted whole,
 * as without one (a parse failure never raises, C6.9).
 *
 * <p>Immutable and thread-safe.
 */
public final class BodySelection {

    /** No field named: the whole body is fingerprinted, as the reference does by default. */
    public static final BodySelection WHOLE_BODY = new BodySelection(List.of());

    private final List<String> paths;
    private final List<String[]> segments;

    private BodySelection(List<String> paths) {
        this.paths = List.copyOf(paths);
        List<String[]> split = new ArrayList<>(paths.size());
        for (String path : this.paths) {
            split.add(path.split("\\.", -1));
        }
        this.segments = split;
    }

    /**
     * @param paths field paths, each checked by {@link #checkPath}; at least one
     * @return the selection of those paths, without repeats, sorted
     * @throws IllegalArgumentException naming the rule a path broke, or when there is none
     */
    public static BodySelection of(List<String> paths) {
        Objects.requireNonNull(paths, "paths");
        if (paths.isEmpty()) {
            throw new IllegalArgumentException(
                    "names no field; name the body fields that make up the request (amount,"
                            + " order.id), or set nothing to fingerprint the whole body");
        }
        return new BodySelection(
                paths.stream().map(BodySelection::checkPath).distinct().sorted().toList());
    }

    /**
     * Checks one path: member names separated by single dots, none empty, none holding white space,
     * a comma or a control character.
     *
     * @param path a path, surrounding white space allowed
     * @return the path without its surrounding white space
     * @throws IllegalArgumentException naming the rule it broke
     */
    public static String checkPath(String path) {
        String stripped = Objects.requireNonNull(path, "path").strip();
        if (stripped.isEmpty()) {
            throw new IllegalArgumentException(
                    "an empty field path; name fields as amount or order.id, comma-separated");
        }
        for (String segment : stripped.split("\\.", -1)) {
            if (segment.isEmpty()) {
                throw new IllegalArgumentException(
                        "'"
                                + stripped
                                + "' is not a field path: member names are separated by single"
                                + " dots, and none is empty");
            }
        }
        for (int i = 0; i < stripped.length(); i++) {
            char c = stripped.charAt(i);
            if (Character.isWhitespace(c)
                    || Character.isSpaceChar(c)
                    || Character.isISOControl(c)
                    || c == ',') {
                throw new IllegalArgumentException(
                        "'"
                                + stripped
                                + "' is not a field path: a member name holds white space, a comma"
                                + " or a control character");
            }
        }
        return stripped;
    }

    /**
     * @return the paths, sorted, without repeats; none for {@link #WHOLE_BODY}
     */
    public List<String> paths() {
        return paths;
    }

    /**
     * Selects the fields of a body.
     *
     * @param body the body bytes, in any encoding {@code json.loads} detects
     * @return the selection; empty for {@link #WHOLE_BODY}, when the body is not a JSON object (not
     *     JSON, an array or a scalar at the root, no body at all), or when its selection holds a
     *     lone surrogate, which the reference cannot encode: then the whole body is fingerprinted
     */
    public Optional<Selected> select(byte[] body) {
        Objects.requireNonNull(body, "body");
        if (paths.isEmpty()) {
            return Optional.empty();
        }
        Optional<Object> root = CanonicalJson.parse(body);
        if (root.isEmpty() || !CanonicalJson.isObject(root.get())) {
            return Optional.empty();
        }
        Map<String, Object> selected = new LinkedHashMap<>();
        int found = 0;
        for (int i = 0; i < paths.size(); i++) {
            Optional<Object> value = resolve(root.get(), segments.get(i));
            if (value.isPresent()) {
                found++;
            }
            selected.put(paths.get(i), value.orElse(null));
        }
        int present = found;
        return CanonicalJson.write(CanonicalJson.object(selected), 64)
                .map(bytes -> new Selected(bytes, present));
    }

    /** The value at a path; empty where a member on the way is missing or is not an object. */
    private static Optional<Object> resolve(Object root, String[] segments) {
        Object value = root;
        for (String segment : segments) {
            Optional<Object> next = CanonicalJson.member(value, segment);
            if (next.isEmpty()) {
                return Optional.empty();
            }
            value = next.get();
        }
        return Optional.of(value);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BodySelection that && paths.equals(that.paths);
    }

    @Override
    public int hashCode() {
        return paths.hashCode();
    }

    @Override
    public String toString() {
        return paths.isEmpty() ? "the whole body" : String.join(", ", paths);
    }

    /**
     * The selection of one body.
     *
     * @param canonical its canonical JSON, in UTF-8: the body part of the fingerprint
     * @param found how many of the paths the body has a value at (a {@code null} found counts)
     */
    public record Selected(byte[] canonical, int found) {}
}
