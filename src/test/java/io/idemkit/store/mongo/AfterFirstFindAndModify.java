package io.idemkit.store.mongo;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandSucceededEvent;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Forces an interleaving: runs an armed action once, on the claimer's own thread, right after the
 * claim's first round trip (its findAndModify) has returned and before its second is sent.
 */
final class AfterFirstFindAndModify implements CommandListener {

    private final AtomicReference<Runnable> armed = new AtomicReference<>();

    void arm(Runnable action) {
        armed.set(action);
    }

    @Override
    public void commandSucceeded(CommandSucceededEvent event) {
        fireAfter(event.getCommandName());
    }

    // A claim's first findAndModify fails with a duplicate key whenever the record exists and is
    // not surely live: that failure is the claim's read of the record, and a race lands after it.
    @Override
    public void commandFailed(CommandFailedEvent event) {
        fireAfter(event.getCommandName());
    }

    private void fireAfter(String commandName) {
        if ("findAndModify".equals(commandName)) {
            Runnable action = armed.getAndSet(null);
            if (action != null) {
                action.run();
            }
        }
    }
}
