package io.idemkit.store.memory;

import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One copy of each stored header list the in-memory store holds: most responses of an application
 * carry the same few headers ({@code Content-Type: application/json}), and each completed record
 * held its own list, header records and strings, six objects of its own that every young collection
 * copied while the record was young. The lists are shared by value (headers are immutable); a list
 * with a header of its own ({@code Location: /orders/42}) still shares the headers it has in
 * common.
 *
 * <p>Bounded: the first {@value #MOST} distinct headers and lists are kept, for the store's life;
 * past that, a header or list not seen yet is stored as it came. A result without headers, or with
 * a body over {@value #LARGEST_BODY} bytes, is stored as it came: sharing builds the result again,
 * which copies its body, and a large body's copy costs more than its headers save. Thread-safe.
 */
final class SharedHeaders {

    /** The most distinct headers, and the most distinct lists, kept. */
    static final int MOST = 1024;

    /** The largest body whose result is built again with shared headers. */
    static final int LARGEST_BODY = 8 * 1024;

    private final ConcurrentHashMap<StoredHeader, StoredHeader> headers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<List<StoredHeader>, List<StoredHeader>> lists =
            new ConcurrentHashMap<>();

    /**
     * @param result a result about to be stored
     * @return the same result, its headers the shared copies where there are some
     */
    StoredResult share(StoredResult result) {
        List<StoredHeader> given = result.headers();
        if (given.isEmpty() || result.bodyLength() > LARGEST_BODY) {
            return result;
        }
        List<StoredHeader> shared = lists.get(given);
        if (shared == null) {
            // An immutable list that StoredResult's own List.copyOf keeps as it is.
            shared = List.copyOf(given.stream().map(this::share).toList());
            if (lists.size() < MOST) {
                List<StoredHeader> raced = lists.putIfAbsent(shared, shared);
                shared = raced == null ? shared : raced;
            }
        }
        return shared == given ? result : new StoredResult(result.status(), shared, result.body());
    }

    private StoredHeader share(StoredHeader header) {
        StoredHeader shared = headers.get(header);
        if (shared != null) {
            return shared;
        }
        if (headers.size() >= MOST) {
            return header;
        }
        StoredHeader raced = headers.putIfAbsent(header, header);
        return raced == null ? header : raced;
    }
}
