package io.idemkit.it.http.app;

/** A failure that {@link MappedFailureMapper} turns into a 409 response. */
public class MappedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MappedFailure() {
        super("mapped failure");
    }
}
