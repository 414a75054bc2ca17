package io.idemkit.client;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key rule of the client (C14.2): a request's {@code Idempotency-Key} is HMAC-SHA256, keyed by
 * its operation's key, over the length-prefixed parts {@code idemkit-client-key/1}, the method in
 * upper case, the canonical path and the occurrence of that method and path within the operation,
 * in decimal; written in base64url without padding (43 characters). Stateless.
 */
final class RequestKeys {

    /** Names the rule, so that a later rule can never produce the keys of this one. */
    private static final byte[] RULE = "idemkit-client-key/1".getBytes(StandardCharsets.US_ASCII);

    /**
     * Names the rule for a request in a named step, which has the step names as parts of their own:
     * no key of a step is ever a key of a request outside steps.
     */
    private static final byte[] STEP_RULE =
            "idemkit-client-step-key/1".getBytes(StandardCharsets.US_ASCII);

    /** The random bytes of an operation key the library makes: 128 bits (C14.1). */
    static final int RANDOM_KEY_BYTES = 16;

    private static final SecureRandom RANDOM = new SecureRandom();

    private RequestKeys() {}

    /**
     * @return a new operation key of 128 bits from {@link SecureRandom}
     */
    static byte[] randomOperationKey() {
        byte[] key = new byte[RANDOM_KEY_BYTES];
        RANDOM.nextBytes(key);
        return key;
    }

    /**
     * @param operationKey the operation's key: its random bytes, or the UTF-8 bytes of the key the
     *     application chose
     * @param method the request's method
     * @param canonicalPath the request's path as {@link #canonicalPath} gives it
     * @param occurrence 1 for the first request of this method and path in the operation, 2 for the
     *     second, and so on
     * @return the request's key: 43 characters of base64url
     */
    static String derive(byte[] operationKey, String method, String canonicalPath, int occurrence) {
        return derive(operationKey, RULE, List.of(), method, canonicalPath, occurrence);
    }

    /**
     * The key of a request in a named step (C14.2): HMAC-SHA256 keyed by the operation's key over
     * the length-prefixed parts {@code idemkit-client-step-key/1}, the number of step names, each
     * name in UTF-8 (outermost first), then the method, the canonical path and the occurrence
     * within the innermost step, as {@link #derive} has them.
     *
     * @param steps the step names, outermost first, at least one
     */
    static String deriveInStep(
            byte[] operationKey,
            List<String> steps,
            String method,
            String canonicalPath,
            int occurrence) {
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("a step key needs a step name");
        }
        return derive(operationKey, STEP_RULE, steps, method, canonicalPath, occurrence);
    }

    private static String derive(
            byte[] operationKey,
            byte[] rule,
            List<String> steps,
            String method,
            String canonicalPath,
            int occurrence) {
        if (occurrence < 1) {
            throw new IllegalArgumentException("occurrence must be at least 1: " + occurrence);
        }
        ByteArrayOutputStream parts = new ByteArrayOutputStream(128);
        part(parts, rule);
        if (!steps.isEmpty()) {
            part(parts, Integer.toString(steps.size()).getBytes(StandardCharsets.US_ASCII));
            for (String step : steps) {
                part(parts, step.getBytes(StandardCharsets.UTF_8));
            }
        }
        part(parts, method.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
        part(parts, canonicalPath.getBytes(StandardCharsets.UTF_8));
        part(parts, Integer.toString(occurrence).getBytes(StandardCharsets.US_ASCII));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(operationKey, "HmacSHA256"));
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(mac.doFinal(parts.toByteArray()));
        } catch (GeneralSecurityException e) {
            // Every Java platform must provide HmacSHA256 (the Mac class's Javadoc).
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /**
     * The path the key rule reads: the raw path as sent, with repeated slashes collapsed, the
     * trailing slash dropped (except the root's) and percent-escapes in upper-case hex, as the
     * server canonicalizes it (C6.9). Scheme, host, port, query and fragment are left out, so that
     * a retry sent to another instance of the same service, or with a regenerated query parameter,
     * keeps its key.
     *
     * @param uri the request's target
     * @return its canonical path
     */
    static String canonicalPath(URI uri) {
        String raw = uri.getRawPath();
        if (raw == null || raw.isEmpty()) {
            return "/";
        }
        StringBuilder path = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '/' && path.length() > 0 && path.charAt(path.length() - 1) == '/') {
                continue;
            }
            if (c == '%' && i + 2 < raw.length()) {
                path.append('%')
                        .append(Character.toUpperCase(raw.charAt(i + 1)))
                        .append(Character.toUpperCase(raw.charAt(i + 2)));
                i += 2;
                continue;
            }
            path.append(c);
        }
        if (path.length() > 1 && path.charAt(path.length() - 1) == '/') {
            path.setLength(path.length() - 1);
        }
        if (path.charAt(0) != '/') {
            path.insert(0, '/');
        }
        return path.toString();
    }

    private static void part(ByteArrayOutputStream out, byte[] bytes) {
        out.writeBytes(ByteBuffer.allocate(4).putInt(bytes.length).array());
        out.writeBytes(bytes);
    }
}
