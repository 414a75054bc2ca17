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
    CLAIM("claim.lua", true),
    COMPLETE("complete.lua", true),
    RENEW("renew.lua", true),
    RELEASE("release.lua", false),
    DELETE("delete.lua", false),
    FIND("find.lua", true),
    COUNT("count.lua", false),
    CLOCK("clock.lua", true);

    private final byte[] text;
    private final byte[] sha;
    private final boolean resendable;

    Scripts(String file, boolean resendable) {
        this.resendable = resendable;
        String source = resource("record.lua") + "\n" + resource(file);
        this.text = source.getBytes(StandardCharsets.UTF_8);
        this.sha = sha1(text).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * @return whether the script may be sent again after its connection broke, not knowing whether
     *     it ran: it reads only, or it writes the same again ({@code renew}), or it recognizes its
     *     own first run by the token ({@code claim}; {@code complete}, told it is sent again). A
     *     release, a delete or an attempt count sent twice would answer or count wrongly
     */
    boolean resendable() {
        return resendable;
    }

    /**
     * @param args the arguments of the first sending
     * @return the arguments to send again with: the same, but for {@code complete}, whose last
     *     argument then says that it is sent again
     */
    byte[][] resent(byte[][] args) {
        if (this != COMPLETE) {
            return args;
        }
        byte[][] again = args.clone();
        again[again.length - 1] = new byte[] {'1'};
        return again;
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
