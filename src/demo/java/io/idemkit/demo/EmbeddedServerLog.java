package io.idemkit.demo;

import de.bwaldvogel.mongo.exception.DuplicateKeyError;
import de.bwaldvogel.mongo.wire.MongoWireProtocolHandler;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Keeps the embedded server's expected refusals out of the application server's log.
 * mongo-java-server logs every command it refuses as an ERROR, with a stack trace and the whole
 * command (for idemkit's records: fingerprints and stored response bodies). One such refusal is
 * part of normal operation: a claim on a key whose record has expired is refused with a duplicate
 * key, by design, and idemkit answers it by taking the record over. Only that refusal is dropped;
 * everything else the embedded server logs still shows.
 *
 * <p>It filters the {@code java.util.logging} logger that SLF4J's JDK binding (shipped in the WAR)
 * writes to, which every runtime routes to its own log. The filter is removed again on {@link
 * #close()}: the logger outlives the application, and must not keep its classes.
 */
final class EmbeddedServerLog implements Filter, AutoCloseable {

    // Held here: java.util.logging keeps loggers only weakly, and a collected logger loses its
    // filter.
    private final Logger handlerLog;

    private EmbeddedServerLog(Logger handlerLog) {
        this.handlerLog = handlerLog;
    }

    /**
     * @return the filter, installed on the logger of mongo-java-server's command handler, which (in
     *     1.47) logs under the name of its wire protocol handler
     */
    static EmbeddedServerLog install() {
        EmbeddedServerLog filter =
                new EmbeddedServerLog(Logger.getLogger(MongoWireProtocolHandler.class.getName()));
        filter.handlerLog.setFilter(filter);
        return filter;
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        return !(record.getThrown() instanceof DuplicateKeyError);
    }

    @Override
    public void close() {
        if (handlerLog.getFilter() == this) {
            handlerLog.setFilter(null);
        }
    }
}
