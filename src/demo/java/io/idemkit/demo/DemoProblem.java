package io.idemkit.demo;

import jakarta.json.Json;
import jakarta.ws.rs.core.Response;

/**
 * The demo's own refusals as RFC 9457 {@code application/problem+json}, the way idemkit answers its
 * own. A detail is fixed text: it never repeats the request's body or URL.
 */
final class DemoProblem {

    /** The problems' media type (RFC 9457). */
    static final String PROBLEM_JSON = "application/problem+json";

    private DemoProblem() {}

    /**
     * @return a 400 response with the problem as its body
     */
    static Response badRequest(String type, String title, String detail) {
        return Response.status(Response.Status.BAD_REQUEST)
                .type(PROBLEM_JSON)
                .entity(
                        Json.createObjectBuilder()
                                .add("type", type)
                                .add("title", title)
                                .add("status", 400)
                                .add("detail", detail)
                                .build()
                                .toString())
                .build();
    }
}
