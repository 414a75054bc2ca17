package io.idemkit.testsupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The warnings one class logs while a test runs, as text (message and thrown exception, if any),
 * for tests that prove what a warning leaves out. Close it to stop capturing.
 */
public final class CapturedWarnings implements AutoCloseable {

    private final Logger logger;
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final Handler handler =
            new Handler() {
                @Override
                public void publish(LogRecord record) {
                    if (record.getLevel() == Level.WARNING) {
                        Throwable thrown = record.getThrown();
                        warnings.add(
                                record.getMessage()
                                        + (thrown == null ? "" : " / thrown: " + thrown));
                    }
                }

                @Override
                public void flush() {}

                @Override
                public void close() {}
            };

    private CapturedWarnings(Class<?> of) {
        this.logger = Logger.getLogger(of.getName());
        logger.addHandler(handler);
    }

    /**
     * @param of the class whose logger to listen to
     * @return the capture, already listening
     */
    public static CapturedWarnings of(Class<?> of) {
        return new CapturedWarnings(of);
    }

    /**
     * @return the warnings logged so far, in order
     */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
