package io.idemkit.it.message.txtimeout;

import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * A message listener as the message surface sees one ({@code onMessage(Message)} of a {@code
 * MessageListener}), on a runtime without a messaging engine: what its deployment reads and checks
 * (C11.4) is the same as a message-driven bean's, and nothing ever delivers to it.
 */
@ApplicationScoped
@Idempotent
public class TimedListener implements MessageListener {

    @Override
    public void onMessage(Message message) {
        // Never called: the test looks at the deployment only.
    }
}
