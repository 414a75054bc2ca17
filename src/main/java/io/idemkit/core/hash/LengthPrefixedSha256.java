package io.idemkit.core.hash;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * SHA-256 over length-prefixed parts, as lowercase hex: for each part, its length as 4 bytes
 * big-endian unsigned, then its bytes (contract C1). Mirrors {@code _length_prefixed_sha256} of the
 * Python reference. The prefix keeps the construction unambiguous for any bytes, 0x00 included, so
 * parts are never joined with a separator.
 *
 * <p>Thread-safe and stateless.
 */
public final class LengthPrefixedSha256 {

    private static final HexFormat HEX = HexFormat.of();

    // Cloning a prototype skips the provider lookup of MessageDigest.getInstance on the hot path,
    // and unlike a ThreadLocal it leaves nothing behind on a container's pooled threads.
    private static final MessageDigest PROTOTYPE = newSha256();

    private LengthPrefixedSha256() {}

    /**
     * Hashes the parts in order.
     *
     * @param parts the parts; none may be null; any length, including empty
     * @return 64 lowercase hex characters
     */
    public static String hex(byte[]... parts) {
        Objects.requireNonNull(parts, "parts");
        MessageDigest digest = digest();
        byte[] prefix = new byte[4];
        for (byte[] part : parts) {
            update(digest, prefix, part);
        }
        return HEX.formatHex(digest.digest());
    }

    /**
     * Hashes the parts in list order.
     *
     * @param parts the parts; none may be null; any length, including empty
     * @return 64 lowercase hex characters
     */
    public static String hex(List<byte[]> parts) {
        Objects.requireNonNull(parts, "parts");
        MessageDigest digest = digest();
        byte[] prefix = new byte[4];
        for (byte[] part : parts) {
            update(digest, prefix, part);
        }
        return HEX.formatHex(digest.digest());
    }

    private static void update(MessageDigest digest, byte[] prefix, byte[] part) {
        Objects.requireNonNull(part, "part");
        int length = part.length;
        prefix[0] = (byte) (length >>> 24);
        prefix[1] = (byte) (length >>> 16);
        prefix[2] = (byte) (length >>> 8);
        prefix[3] = (byte) length;
        digest.update(prefix);
        digest.update(part);
    }

    private static MessageDigest digest() {
        try {
            return (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            return newSha256();
        }
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-256; never fall back to another algorithm.
            throw new IllegalStateException("SHA-256 is not available on this JVM", e);
        }
    }
}
