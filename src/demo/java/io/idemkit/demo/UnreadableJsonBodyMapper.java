package io.idemkit.demo;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Answers a request body that is not JSON of the expected shape with 400 and an RFC 9457 problem,
 * as idemkit answers its own refusals, instead of the runtime's 500. The detail is fixed: the
 * parser's message may quote the body, and neither answers nor logs repeat a body.
 */
@Provider
public class UnreadableJsonBodyMapper implements ExceptionMapper<UnreadableJsonBody> {

    /** The problem's type. */
    static final String TYPE = "urn:idemkit-demo:malformed-json";

    @Override
    public Response toResponse(UnreadableJsonBody exception) {
        return DemoProblem.badRequest(
                TYPE,
                "Malformed JSON body",
                "The request body is not JSON of the expected shape. Send a payment such as"
                        + " {\"amount\": 1999, \"currency\": \"EUR\", \"to\": \"acct_42\"}.");
    }
}
