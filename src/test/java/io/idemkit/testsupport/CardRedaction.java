package io.idemkit.testsupport;

import io.idemkit.spi.IdempotencyRedactor;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A result with a card number in its body and in a header, and the redactor that masks both, for
 * the redactor tests of each store (C4.10).
 */
public final class CardRedaction {

    /** A test card number. */
    public static final String CARD = "4111111111111111";

    /** What the redactor leaves of it. */
    public static final String MASKED = "************1111";

    /** Masks the card wherever it appears in the body or a header value. */
    public static final IdempotencyRedactor MASK =
            result ->
                    new StoredResult(
                            result.status(),
                            result.headers().stream()
                                    .map(h -> new StoredHeader(h.name(), mask(h.value())))
                                    .toList(),
                            mask(new String(result.body(), StandardCharsets.UTF_8))
                                    .getBytes(StandardCharsets.UTF_8));

    private CardRedaction() {}

    /**
     * @return a 201 whose JSON body and {@code Location} header carry the card number
     */
    public static StoredResult charged() {
        return new StoredResult(
                201,
                List.of(
                        new StoredHeader("Content-Type", "application/json"),
                        new StoredHeader("Location", "/cards/" + CARD)),
                ("{\"card\":\"" + CARD + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    private static String mask(String text) {
        return text.replace(CARD, MASKED);
    }
}
