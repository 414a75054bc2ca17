package io.idemkit.it.kafka.app;

import io.idemkit.spi.RecordKeyExtractor;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Takes the key of a {@code once:<tag>} record from its payload, {@code id-<tag>}; gives no key for
 * any other record, which is then keyed by its header, else its coordinates.
 */
@ApplicationScoped
public class PaymentIds implements RecordKeyExtractor {

    @Override
    public Optional<String> keyOf(Record record) {
        String[] parts = String.valueOf(record.payload()).split(":", 3);
        return parts[0].equals("once") && record.topic().isPresent()
                ? Optional.of("id-" + parts[1])
                : Optional.empty();
    }
}
