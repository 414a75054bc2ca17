package io.idemkit.openapi;

import io.idemkit.IdempotencyWire;
import jakarta.ws.rs.core.HttpHeaders;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Adds to the operations of {@code @Idempotent} endpoints what the HTTP surface adds to them
 * (C6.12): the key header parameter (C6.1), the problem responses (C6.4), and the replay and expiry
 * headers of successes (C6.2, C6.8). Adds only what is absent: an application's own description of
 * the same parameter, response or header wins. Stateless.
 */
final class OpenApiDecoration {

    /** The name of the problem schema this adds to the components. */
    static final String PROBLEM_SCHEMA = "IdempotencyProblem";

    private static final String PROBLEM_JSON = "application/problem+json";
    private static final Set<String> KEY_REQUIRED_METHODS =
            Set.of("POST", "PUT", "PATCH", "DELETE");

    private OpenApiDecoration() {}

    /**
     * @param stripe whether the server answers in the Stripe dialect ({@code compat-mode=stripe})
     * @param requireKey whether a mutating request must carry a key ({@code require-key})
     * @return how many operations were described
     */
    static int decorate(
            OpenAPI openApi, List<OpenApiEndpoint> endpoints, boolean stripe, boolean requireKey) {
        int described = 0;
        for (EndpointOperations.Match match : EndpointOperations.in(openApi, endpoints)) {
            describe(openApi, match, stripe, requireKey);
            described++;
        }
        if (described > 0) {
            addProblemSchema(openApi);
        }
        return described;
    }

    private static void describe(
            OpenAPI openApi, EndpointOperations.Match match, boolean stripe, boolean requireKey) {
        Operation operation = match.operation();
        OpenApiEndpoint endpoint = match.endpoint();
        endpoint.keyHeader()
                .ifPresent(
                        header -> {
                            if (!KeyParameters.declared(
                                    openApi, match.pathItem(), operation, header)) {
                                operation.addParameter(
                                        keyParameter(
                                                header,
                                                requireKey
                                                        && KEY_REQUIRED_METHODS.contains(
                                                                endpoint.httpMethod())));
                            }
                        });
        if (operation.getResponses() == null) {
            operation.setResponses(OASFactory.createAPIResponses());
        }
        APIResponses responses = operation.getResponses();
        Map<String, APIResponse> existing = responses.getAPIResponses();
        if (existing != null) {
            for (Map.Entry<String, APIResponse> response : existing.entrySet()) {
                if (response.getKey().startsWith("2")) {
                    addSuccessHeaders(response.getValue(), stripe);
                }
            }
        }
        if (endpoint.keyHeader().isPresent()) {
            addProblem(
                    responses,
                    "400",
                    "The idempotency key is missing or malformed ("
                            + IdempotencyWire.MISSING_KEY
                            + "): send a key of 1 to 255 UTF-8 bytes.",
                    false);
        }
        if (stripe) {
            addProblem(
                    responses,
                    "409",
                    "The key was used with another request ("
                            + IdempotencyWire.PAYLOAD_MISMATCH
                            + "), or a request with it is still in progress ("
                            + IdempotencyWire.IN_PROGRESS
                            + ", with Retry-After).",
                    true);
        } else {
            addProblem(
                    responses,
                    "422",
                    "The key was used with another request ("
                            + IdempotencyWire.PAYLOAD_MISMATCH
                            + "): use a new key for a new operation.",
                    false);
            addProblem(
                    responses,
                    "423",
                    "A request with this key is still in progress ("
                            + IdempotencyWire.IN_PROGRESS
                            + "): retry with the same key after Retry-After.",
                    true);
        }
        addProblem(
                responses,
                "503",
                "The idempotency store is unavailable ("
                        + IdempotencyWire.STORAGE_ERROR
                        + "): retry with the same key after Retry-After.",
                true);
    }

    private static Parameter keyParameter(String header, boolean required) {
        return OASFactory.createParameter()
                .name(header)
                .in(Parameter.In.HEADER)
                .required(required)
                .description(
                        "Idempotency key: 1 to 255 UTF-8 bytes, one per operation. Send the same"
                                + " key and request to retry: the first result is replayed.")
                .schema(SchemaTypes.of(SchemaType.STRING).minLength(1).maxLength(255));
    }

    private static void addSuccessHeaders(APIResponse response, boolean stripe) {
        String replayed =
                stripe ? IdempotencyWire.STRIPE_REPLAYED_HEADER : IdempotencyWire.REPLAYED_HEADER;
        addHeader(
                response,
                replayed,
                "true when this is the stored response of an earlier request with the same key.",
                SchemaTypes.of(SchemaType.BOOLEAN));
        addHeader(
                response,
                IdempotencyWire.KEY_EXPIRES_HEADER,
                "Until when the same key replays this response (IMF-fixdate).",
                SchemaTypes.of(SchemaType.STRING));
    }

    private static void addHeader(
            APIResponse response, String name, String description, Schema schema) {
        Map<String, Header> headers = response.getHeaders();
        if (headers != null) {
            for (String present : headers.keySet()) {
                if (present.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                    return;
                }
            }
        }
        response.addHeader(name, OASFactory.createHeader().description(description).schema(schema));
    }

    private static void addProblem(
            APIResponses responses, String status, String description, boolean retryAfter) {
        if (responses.getAPIResponses() != null
                && responses.getAPIResponses().containsKey(status)) {
            return;
        }
        APIResponse response =
                OASFactory.createAPIResponse()
                        .description(description)
                        .content(
                                OASFactory.createContent()
                                        .addMediaType(
                                                PROBLEM_JSON,
                                                OASFactory.createMediaType()
                                                        .schema(
                                                                OASFactory.createSchema()
                                                                        .ref(PROBLEM_SCHEMA))));
        if (retryAfter) {
            response.addHeader(
                    HttpHeaders.RETRY_AFTER,
                    OASFactory.createHeader()
                            .description("Seconds to wait before retrying with the same key.")
                            .schema(SchemaTypes.of(SchemaType.INTEGER)));
        }
        responses.addAPIResponse(status, response);
    }

    private static void addProblemSchema(OpenAPI openApi) {
        if (openApi.getComponents() == null) {
            openApi.setComponents(OASFactory.createComponents());
        }
        Components components = openApi.getComponents();
        if (components.getSchemas() != null
                && components.getSchemas().containsKey(PROBLEM_SCHEMA)) {
            return;
        }
        components.addSchema(
                PROBLEM_SCHEMA,
                SchemaTypes.of(SchemaType.OBJECT)
                        .description("RFC 9457 problem details; type is a urn:idemkit: URN.")
                        .addProperty("type", SchemaTypes.of(SchemaType.STRING))
                        .addProperty("title", SchemaTypes.of(SchemaType.STRING))
                        .addProperty("status", SchemaTypes.of(SchemaType.INTEGER))
                        .addProperty("detail", SchemaTypes.of(SchemaType.STRING)));
    }
}
