package io.idemkit.store.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The Lua scripts that are the Redis store's only way to read and change a record, each one atomic
 * on the server that holds the key: the files beside this class, each prefixed with {@code
 * record.lua} (the record's layout, its reading, and the server's clock). Run by {@code EVALSHA},
 * and by {@code EVAL} the first time a server has not seen the script ({@link RedisCommands}).
 */
enum Scripts {
    CLAIM("claim.lua"),
    COMPLETE("complete.lua"),
    RENEW("renew.lua"),
    RELEASE("release.lua"),
    DELETE("delete.lua"),
    FIND("find.lua"),
    COUNT("count.lua"),
    CLOCK("clock.lua");

    private final byte[] text;
    private final byte[] sha;

    Scripts(String file) {
        String source = resource("record.lua") + "\n" + resource(file);
        this.text = source.getBytes(StandardCharsets.UTF_8);
        this.sha = sha1(text).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * @return the script's source, sent with {@code EVAL}
     */
    byte[] text() {
        return text;
    }

    /**
     * @return the script's SHA-1 in hexadecimal, sent with {@code EVALSHA}
     */
    byte[] sha() {
        return sha;
    }

    private static String resource(String file) {
        try (InputStream in = Scripts.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("the library jar lacks " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(byte[] text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
