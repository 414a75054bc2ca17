package io.idemkit.openapi;

import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

/**
 * Whether the document already describes an operation's key header (C6.12: what it says wins): as a
 * parameter of the operation or of its path item (which applies to every operation of the path),
 * written out or as a {@code $ref} to the components' parameters. A second parameter of the same
 * name and location would make the document invalid (OpenAPI 3: a parameter's name and location are
 * unique). Stateless.
 */
final class KeyParameters {

    private static final String COMPONENT_PREFIX = "#/components/parameters/";

    /** A {@code $ref} that leads to another one is followed this far, no further (a cycle). */
    private static final int MAX_REFS = 8;

    private KeyParameters() {}

    /**
     * @return whether {@code operation} or {@code pathItem} has a header parameter named {@code
     *     header} (case-insensitively), itself or through a reference to the document's components
     */
    static boolean declared(
            OpenAPI openApi, PathItem pathItem, Operation operation, String header) {
        return declaredIn(openApi, operation.getParameters(), header)
                || declaredIn(openApi, pathItem.getParameters(), header);
    }

    private static boolean declaredIn(OpenAPI openApi, List<Parameter> parameters, String header) {
        if (parameters == null) {
            return false;
        }
        for (Parameter parameter : parameters) {
            Parameter resolved = resolve(openApi, parameter);
            if (resolved != null
                    && resolved.getIn() == Parameter.In.HEADER
                    && resolved.getName() != null
                    && resolved.getName().equalsIgnoreCase(header)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return the parameter a {@code $ref} leads to, the parameter itself without one, or {@code
     *     null} when the reference leads nowhere in this document (another file, a missing name)
     */
    private static Parameter resolve(OpenAPI openApi, Parameter parameter) {
        Parameter current = parameter;
        for (int i = 0; current != null && current.getRef() != null && i < MAX_REFS; i++) {
            current = component(openApi, current.getRef());
        }
        return current == null || current.getRef() != null ? null : current;
    }

    private static Parameter component(OpenAPI openApi, String ref) {
        if (!ref.startsWith(COMPONENT_PREFIX)
                || openApi.getComponents() == null
                || openApi.getComponents().getParameters() == null) {
            return null;
        }
        Map<String, Parameter> parameters = openApi.getComponents().getParameters();
        return parameters.get(ref.substring(COMPONENT_PREFIX.length()));
    }
}
