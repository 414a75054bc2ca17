package io.idemkit.client;

import jakarta.ws.rs.client.ResponseProcessingException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.MalformedURLException;
import java.net.ProtocolException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.CharacterCodingException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Which failures of a call a new connection can cure (C14.5): refused, reset or timed-out
 * connections, a response that never came. A JAX-RS client wraps them in a {@code
 * ProcessingException}; the causes are read. Stateless.
 */
final class TransientFailures {

    private TransientFailures() {}

    /**
     * @return whether {@code failure}, or a cause of it, is I/O that another attempt may get past;
     *     never a name that does not resolve, a malformed URL, a redirect loop or a certificate
     *     refused, which fail again
     */
    static boolean isTransient(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t instanceof ResponseProcessingException) {
                // The answer came, and reading it failed: a connection lost mid-body is the
                // network's, a mapping error fails again.
                return connectionLost(t.getCause());
            }
            if (t instanceof SSLHandshakeException) {
                // A refused certificate fails again; a connection reset or closed mid-handshake
                // is the network's, as anywhere else.
                return connectionLost(t.getCause());
            }
            if (t instanceof UnknownHostException
                    || t instanceof MalformedURLException
                    || t instanceof ProtocolException
                    || t instanceof SSLPeerUnverifiedException) {
                return false;
            }
            if (t instanceof InterruptedIOException && !(t instanceof SocketTimeoutException)) {
                // An interrupted thread is asked to stop, not to retry. HttpTimeoutException is
                // an IOException of its own, handled below.
                return !Thread.currentThread().isInterrupted()
                        && t.getClass().getName().endsWith("TimeoutException");
            }
            if (t instanceof IOException || t instanceof TimeoutException) {
                return !readingFailed(t);
            }
        }
        return false;
    }

    /**
     * Whether an {@code IOException} says a body could not be read as data, not that the connection
     * failed: Jackson's parse and mapping errors are {@code IOException}s, and so is a malformed
     * character encoding.
     */
    private static boolean readingFailed(Throwable t) {
        return t instanceof CharacterCodingException
                || t.getClass().getName().startsWith("com.fasterxml.jackson.");
    }

    /** Whether a cause in the chain says the connection was reset, closed or timed out. */
    private static boolean connectionLost(Throwable cause) {
        for (int depth = 0; cause != null && depth < 16; depth++, cause = cause.getCause()) {
            if (cause instanceof SocketException
                    || cause instanceof EOFException
                    || cause instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
