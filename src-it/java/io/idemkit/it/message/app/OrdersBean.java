package io.idemkit.it.message.app;

import io.idemkit.Idempotent;
import io.idemkit.it.transaction.slowcommit.SlowCommit;
import jakarta.annotation.Resource;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The protected consumer: a message-driven bean with {@code @Idempotent} and no other code of the
 * library's. What it does comes from the message's {@code mode} property: {@code ok}, {@code slow}
 * (half a second), {@code fail} (always throws), {@code block} (the first delivery of the message
 * in any server blocks for two minutes, so that the test can kill the server mid-run), or {@code
 * rollback-once} (the first delivery marks its transaction rollback-only), or {@code slow-commit}
 * (its transaction's commit takes the message's {@code commitMillis}: a synchronization of its own
 * sleeps in {@code beforeCompletion}, as a slow resource's prepare would). Each run also counts the
 * broker's {@code JMSXDeliveryCount} and {@code JMSRedelivered}. Its queue is bound by Liberty's
 * activation specification {@code <application>/OrdersBean} in the server's configuration, or by
 * the WAR's {@code ejb-jar.xml} on WildFly.
 */
@MessageDriven(name = "OrdersBean")
@Idempotent
public class OrdersBean implements MessageListener {

    @Inject Ledger ledger;

    @Resource MessageDrivenContext context;

    @Resource TransactionSynchronizationRegistry transactions;

    @Override
    public void onMessage(Message message) {
        try {
            String tag = message.getStringProperty("tag");
            ledger.count("runs", tag);
            // What the broker says of this delivery: its JMSXDeliveryCount, and whether it says
            // the message was delivered before.
            ledger.count("delivery-" + message.getIntProperty("JMSXDeliveryCount"), tag);
            if (message.getJMSRedelivered()) {
                ledger.count("redelivered", tag);
            }
            switch (String.valueOf(message.getStringProperty("mode"))) {
                case "slow" -> Thread.sleep(500);
                case "fail" -> throw new IllegalStateException("order " + tag + " always fails");
                case "block" -> {
                    if (firstTime(message)) {
                        ledger.count("blocked", tag);
                        Thread.sleep(120_000);
                    }
                }
                case "slow-commit" -> commitSlowly(tag, message.getLongProperty("commitMillis"));
                case "rollback-once" -> {
                    if (firstTime(message)) {
                        context.setRollbackOnly();
                        return;
                    }
                }
                default -> {
                    // ok
                }
            }
            ledger.count("done", tag);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void commitSlowly(String tag, long millis) {
        SlowCommit.register(
                transactions,
                millis,
                () -> ledger.count("committing", tag),
                () -> ledger.count("commit-interrupted", tag));
    }

    /** Whether the marker file the message names did not exist yet; creates it. */
    private static boolean firstTime(Message message) throws JMSException {
        try {
            Files.createFile(Path.of(message.getStringProperty("marker")));
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
