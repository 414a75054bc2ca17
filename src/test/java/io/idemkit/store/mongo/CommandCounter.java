package io.idemkit.store.mongo;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records the name of every command the driver sends, as the driver reports it. The driver's own
 * monitoring heartbeats are not reported to command listeners, so every entry is one round trip the
 * store made.
 */
final class CommandCounter implements CommandListener {

    private final List<String> sent = new CopyOnWriteArrayList<>();

    @Override
    public void commandStarted(CommandStartedEvent event) {
        sent.add(event.getCommandName());
    }

    /** Forgets what was sent so far. */
    void reset() {
        sent.clear();
    }

    List<String> sent() {
        return List.copyOf(sent);
    }

    long count(String commandName) {
        return sent.stream().filter(commandName::equals).count();
    }
}
