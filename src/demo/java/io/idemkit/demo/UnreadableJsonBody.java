package io.idemkit.demo;

/**
 * A request body the JSON-B reader could not turn into the resource method's parameter: the
 * client's mistake, answered with 400 by {@link UnreadableJsonBodyMapper}. Only {@link
 * JsonBodyReading} raises it.
 */
public class UnreadableJsonBody extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param cause what the runtime's JSON-B reader threw
     */
    public UnreadableJsonBody(RuntimeException cause) {
        super("The request body is not JSON of the expected shape", cause);
    }
}
