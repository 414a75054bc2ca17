package io.idemkit.store.memory;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.ConfigValues;
import java.time.Duration;
import java.util.List;

/**
 * The in-memory store's settings ({@code idemkit.memory.*}).
 *
 * @param maxSize the most entries the store holds
 * @param maxBytes the most bytes its entries may take; zero for no byte budget
 * @param sweepInterval how often it purges expired records
 */
public record MemoryStoreSettings(int maxSize, long maxBytes, Duration sweepInterval) {

    /**
     * @param values the reading of the application's configuration; a broken key is recorded there
     * @return the settings; zero or {@code null} in place of broken keys (the caller throws before
     *     using them)
     */
    public static MemoryStoreSettings read(ConfigValues values) {
        return new MemoryStoreSettings(
                values.wholeNumber(
                        MemoryKeys.MAX_SIZE, MemoryKeys.MAX_SIZE_DEFAULT, Integer.MAX_VALUE),
                values.wholeNumber(
                        MemoryKeys.MAX_BYTES, MemoryKeys.MAX_BYTES_DEFAULT, Long.MAX_VALUE),
                values.positive(MemoryKeys.SWEEP_INTERVAL, MemoryKeys.SWEEP_INTERVAL_DEFAULT));
    }

    /**
     * @param maxBodyBytes {@code idemkit.max-body-bytes}, the largest result stored
     * @return why the byte budget cannot hold such a result, or nothing
     */
    List<String> problems(int maxBodyBytes) {
        if (maxBytes != 0 && maxBodyBytes != 0 && maxBytes < maxBodyBytes) {
            // A result the budget cannot hold would be evicted as soon as it is stored (C10.2).
            return List.of(
                    "Invalid "
                            + MemoryKeys.MAX_BYTES
                            + "="
                            + maxBytes
                            + ": must be at least "
                            + ConfigKeys.MAX_BODY_BYTES
                            + " ("
                            + maxBodyBytes
                            + "), or a result of that size could not be kept");
        }
        return List.of();
    }
}
