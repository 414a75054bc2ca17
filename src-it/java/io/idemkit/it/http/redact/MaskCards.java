package io.idemkit.it.http.redact;

import io.idemkit.spi.IdempotencyRedactor;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** The application's one redactor: keeps only the last four digits of any card number. */
@ApplicationScoped
public class MaskCards implements IdempotencyRedactor {

    private static final Pattern CARD = Pattern.compile("\\d{12}(\\d{4})");

    @Override
    public StoredResult redact(StoredResult result) {
        return new StoredResult(
                result.status(),
                result.headers().stream()
                        .map(h -> new StoredHeader(h.name(), mask(h.value())))
                        .toList(),
                mask(new String(result.body(), StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.UTF_8));
    }

    private static String mask(String text) {
        return CARD.matcher(text).replaceAll("************$1");
    }
}
