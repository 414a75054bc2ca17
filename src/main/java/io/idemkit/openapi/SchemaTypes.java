package io.idemkit.openapi;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;

/**
 * Schemas of one type in either generation of the MicroProfile OpenAPI model the runtime brings:
 * 3.x sets a type ({@code setType(SchemaType)}); 4.x, on JSON Schema 2020-12, holds a list of them
 * and has no such method ({@code addType(SchemaType)}). Code compiled against one generation would
 * fail on the other with a {@code NoSuchMethodError}, as it did on Open Liberty's {@code
 * mpOpenAPI-4.0}; so the method is found once, by name. Thread-safe.
 */
final class SchemaTypes {

    private static final Method SET_TYPE = find();

    private SchemaTypes() {}

    /**
     * @return a new schema of {@code type}
     */
    static Schema of(SchemaType type) {
        Schema schema = OASFactory.createSchema();
        try {
            SET_TYPE.invoke(schema, type);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("the OpenAPI model refused a schema type", e);
        }
        return schema;
    }

    private static Method find() {
        try {
            return Schema.class.getMethod("addType", SchemaType.class); // MicroProfile OpenAPI 4
        } catch (NoSuchMethodException e) {
            try {
                return Schema.class.getMethod("setType", SchemaType.class); // 3.x
            } catch (NoSuchMethodException e3) {
                throw new IllegalStateException("an OpenAPI model with no way to type a schema");
            }
        }
    }
}
