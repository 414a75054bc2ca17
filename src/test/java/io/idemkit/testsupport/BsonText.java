package io.idemkit.testsupport;

import java.nio.charset.StandardCharsets;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * Every string of a raw BSON value, and every binary read as UTF-8, joined by newlines: what a test
 * searches to prove that some text never reached a stored document.
 */
public final class BsonText {

    private BsonText() {}

    /**
     * @param value a document, an array or a scalar
     * @return its strings and binaries, at any depth
     */
    public static String of(BsonValue value) {
        StringBuilder all = new StringBuilder();
        append(value, all);
        return all.toString();
    }

    private static void append(BsonValue value, StringBuilder all) {
        if (value.isDocument()) {
            ((BsonDocument) value).values().forEach(field -> append(field, all));
        } else if (value.isArray()) {
            ((BsonArray) value).forEach(item -> append(item, all));
        } else if (value.isString()) {
            all.append(value.asString().getValue()).append('\n');
        } else if (value.isBinary()) {
            all.append(new String(value.asBinary().getData(), StandardCharsets.UTF_8)).append('\n');
        }
    }
}
