package io.idemkit.store.redis;

/** Shows a Redis URI without its password, for logs and messages. Stateless. */
final class RedisUris {

    private RedisUris() {}

    /**
     * @param uri a checked {@code redis://} or {@code rediss://} URI
     * @return the URI with any user information replaced by {@code ***}
     */
    static String redacted(String uri) {
        int scheme = uri.indexOf("://");
        int at = uri.lastIndexOf('@');
        if (scheme < 0 || at < scheme) {
            return uri;
        }
        return uri.substring(0, scheme + 3) + "***" + uri.substring(at);
    }
}
