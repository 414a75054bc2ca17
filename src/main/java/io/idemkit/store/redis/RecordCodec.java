package io.idemkit.store.redis;

import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The Java half of the record's layout on Redis ({@code record.lua} is the other): a record's
 * fields as the scripts return them ({@code HMGET} of the fields in {@code record.lua}'s order),
 * and the headers' encoding, {@code <bytes>:<name><bytes>:<value>} per header in UTF-8. The scripts
 * return only records they found readable, by the same rules this class reads by. Stateless.
 */
final class RecordCodec {

    private RecordCodec() {}

    /**
     * @param headers the result's headers
     * @return their encoding
     */
    static byte[] headers(List<StoredHeader> headers) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (StoredHeader header : headers) {
            write(out, header.name());
            write(out, header.value());
        }
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.writeBytes(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
        out.write(':');
        out.writeBytes(bytes);
    }

    /**
     * @param encoded headers as {@link #headers(List)} encodes them, checked by the script
     * @return the headers
     */
    static List<StoredHeader> headers(byte[] encoded) {
        List<StoredHeader> headers = new ArrayList<>();
        int[] pos = {0};
        while (pos[0] < encoded.length) {
            String name = read(encoded, pos);
            headers.add(new StoredHeader(name, read(encoded, pos)));
        }
        return headers;
    }

    private static String read(byte[] encoded, int[] pos) {
        int colon = pos[0];
        while (encoded[colon] != ':') {
            colon++;
        }
        int length =
                Integer.parseInt(
                        new String(encoded, pos[0], colon - pos[0], StandardCharsets.US_ASCII));
        pos[0] = colon + 1 + length;
        return new String(encoded, colon + 1, length, StandardCharsets.UTF_8);
    }

    /**
     * @param key the record's effective key
     * @param reply the record's fields, as {@code record.lua} lists them; a script returns only a
     *     record it read as readable
     * @return the record
     */
    static IdempotencyRecord record(String key, Object reply) {
        List<?> fields = (List<?>) reply;
        RecordState state = RecordState.valueOf(text(fields, 0));
        IdempotencyRecord.Builder record =
                IdempotencyRecord.builder()
                        .key(key)
                        .state(state)
                        .fingerprint(text(fields, 1))
                        .fingerprintVersion(Integer.parseInt(text(fields, 2)))
                        .token(new ClaimToken(text(fields, 3)))
                        .claimedAt(instant(fields, 4))
                        .leaseUntil(instant(fields, 5));
        if (state == RecordState.COMPLETED) {
            record.completedAt(instant(fields, 6))
                    .expiresAt(instant(fields, 7))
                    .result(
                            new StoredResult(
                                    Integer.parseInt(text(fields, 8)),
                                    headers((byte[]) fields.get(9)),
                                    (byte[]) fields.get(10)));
        }
        return record.build();
    }

    private static String text(List<?> fields, int index) {
        return new String((byte[]) fields.get(index), StandardCharsets.UTF_8);
    }

    private static Instant instant(List<?> fields, int index) {
        return millis(text(fields, index));
    }

    static Instant millis(String text) {
        return Instant.ofEpochMilli(Long.parseLong(text));
    }
}
