package io.idemkit.store.mongo;

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
        if ("findAndModify".equals(event.getCommandName())) {
            Runnable action = armed.getAndSet(null);
            if (action != null) {
                action.run();
            }
        }
    }
}
