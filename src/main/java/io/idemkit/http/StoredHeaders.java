package io.idemkit.http;

import io.idemkit.spi.StoredHeader;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.RuntimeDelegate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Chooses the response headers kept with a stored result (contract C6.3): those on the allow-list
 * ({@code idemkit.headers.stored}) and not on the deny-list ({@code idemkit.headers.never-stored}),
 * which wins. Names are compared case-insensitively and kept as the resource wrote them. At replay,
 * checks them again ({@link #replayable}): a record written under another configuration, by another
 * implementation or by hand is a stored input like any other. Immutable and thread-safe.
 */
final class StoredHeaders {

    private static final System.Logger LOG = System.getLogger(StoredHeaders.class.getName());

    /** A header name: an RFC 9110 token. */
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    /** The names already warned about, so that a stored record does not flood the log. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private static final int MAX_WARNED = 64;

    private final Set<String> stored;
    private final Set<String> neverStored;

    /**
     * @param stored lower-case names to keep
     * @param neverStored lower-case names never to keep
     */
    StoredHeaders(Set<String> stored, Set<String> neverStored) {
        this.stored = lowerCased(stored);
        this.neverStored = lowerCased(neverStored);
    }

    /**
     * @param headers the response headers as JAX-RS holds them (values of any header type)
     * @param type the media type the body is written with, or {@code null}: stored as the {@code
     *     Content-Type} when that header is kept and {@code headers} do not carry it
     * @return the headers to store, in order, each value as it goes on the wire; a new list
     */
    List<StoredHeader> select(MultivaluedMap<String, Object> headers, MediaType type) {
        List<StoredHeader> stored = select(headers);
        if (type == null || !keeps(HttpHeaders.CONTENT_TYPE)) {
            return stored;
        }
        for (StoredHeader header : stored) {
            if (header.name().equalsIgnoreCase(HttpHeaders.CONTENT_TYPE)) {
                return stored;
            }
        }
        stored.add(new StoredHeader(HttpHeaders.CONTENT_TYPE, type.toString()));
        return stored;
    }

    /**
     * @param headers the response headers as JAX-RS holds them (values of any header type)
     * @return the headers to store, in order, each value as it goes on the wire; a new list, the
     *     caller's to change
     */
    List<StoredHeader> select(MultivaluedMap<String, Object> headers) {
        List<StoredHeader> out = new ArrayList<>();
        for (Map.Entry<String, List<Object>> header : headers.entrySet()) {
            if (!keeps(header.getKey())) {
                continue;
            }
            for (Object value : header.getValue()) {
                if (value != null) {
                    out.add(new StoredHeader(header.getKey(), wireForm(value)));
                }
            }
        }
        return out;
    }

    /**
     * The stored headers that may go out with a replay (C6.3): never one on the current deny-list,
     * nor one whose name is not a token or whose value holds a control character other than a tab
     * (CR and LF would split the response). Each one left out is logged once by name, never by
     * value.
     *
     * @param headers the headers of a stored result
     * @return those to send, in order
     */
    List<StoredHeader> replayable(List<StoredHeader> headers) {
        List<StoredHeader> out = new ArrayList<>(headers.size());
        for (StoredHeader header : headers) {
            String name = header.name();
            if (!TOKEN.matcher(name).matches()) {
                leftOut("(a name that is not a token)", "its name is not a header name");
            } else if (neverStored.contains(name.toLowerCase(Locale.ROOT))) {
                leftOut(name, "it is on idemkit.headers.never-stored");
            } else if (!fieldValue(header.value())) {
                leftOut(name, "its value holds a control character");
            } else {
                out.add(header);
            }
        }
        return out;
    }

    private static boolean fieldValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                return false;
            }
        }
        return true;
    }

    private static void leftOut(String name, String why) {
        if (WARNED.size() < MAX_WARNED && WARNED.add(name + why)) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "idemkit left the stored header "
                            + name
                            + " out of a replay: "
                            + why
                            + " (C6.3). The record was stored under another configuration or by"
                            + " another writer. Logged once per header.");
        }
    }

    boolean keeps(String name) {
        String lower = name.toLowerCase(Locale.ROOT); // the same string when already lower case
        return stored.contains(lower) && !neverStored.contains(lower);
    }

    /** Hashed lower-case names: a lookup per response header, cheaper than a sorted set. */
    private static Set<String> lowerCased(Set<String> names) {
        Set<String> set = new HashSet<>();
        for (String name : names) {
            set.add(name.toLowerCase(Locale.ROOT));
        }
        return Set.copyOf(set);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String wireForm(Object value) {
        if (value instanceof String text) {
            return text;
        }
        RuntimeDelegate.HeaderDelegate delegate;
        try {
            delegate = RuntimeDelegate.getInstance().createHeaderDelegate(value.getClass());
        } catch (IllegalArgumentException e) {
            delegate = null; // no delegate for this type: JAX-RS writes toString() too
        }
        return delegate == null ? value.toString() : delegate.toString(value);
    }
}
