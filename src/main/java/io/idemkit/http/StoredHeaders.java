package io.idemkit.http;

import io.idemkit.spi.StoredHeader;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.RuntimeDelegate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Chooses the response headers kept with a stored result (contract C6.3): those on the allow-list
 * ({@code idemkit.headers.stored}) and not on the deny-list ({@code idemkit.headers.never-stored}),
 * which wins. Names are compared case-insensitively and kept as the resource wrote them. Immutable
 * and thread-safe.
 */
final class StoredHeaders {

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
