package io.idemkit.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyMessageExhausted;
import io.idemkit.IdempotencyScopeProvider;
import io.idemkit.Idempotent;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.method.Beans;
import io.idemkit.testsupport.FakeTransactions;
import io.idemkit.testsupport.TestMessages;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.transaction.Status;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the message surface's tests share (C11): one Weld deployment per test with a bean that is a
 * {@code MessageListener} with an {@code @Idempotent onMessage}, called as a message-driven bean's
 * container calls it, with messages as a broker hands them over, and the beans those tests deploy.
 */
public abstract class MessageFixture {

    final TestDeployment deployment = new TestDeployment();
    Orders orders;

    @BeforeEach
    void reset() {
        Beans.reset();
        FakeTransactions.reset();
        Orders.reset();
        deployment.set("idemkit.scope-mode", "single-tenant");
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    void start(Class<?>... extra) {
        Class<?>[] classes = new Class<?>[extra.length + 3];
        classes[0] = Orders.class;
        classes[1] = Beans.EventLog.class;
        classes[2] = ExhaustedLog.class;
        System.arraycopy(extra, 0, classes, 3, extra.length);
        orders = deployment.start(classes).select(Orders.class).get();
    }

    /**
     * Starts a delivery of {@code key} on another thread and waits until the bean runs it; the bean
     * then holds on until {@code Orders.gate} opens.
     */
    CompletableFuture<Void> runningDelivery(String key) throws InterruptedException {
        Orders.gate = new CountDownLatch(1);
        Orders.entered = new CountDownLatch(1);
        CompletableFuture<Void> delivery =
                CompletableFuture.runAsync(
                        () ->
                                orders.onMessage(
                                        TestMessages.message()
                                                .property("IdempotencyKey", key)
                                                .build()));
        assertThat(Orders.entered.await(10, TimeUnit.SECONDS)).isTrue();
        return delivery;
    }

    /** A message listener as a message-driven bean would be, without the EJB container. */
    @ApplicationScoped
    public static class Orders implements MessageListener {
        public static final AtomicInteger runs = new AtomicInteger();
        static final AtomicInteger failuresLeft = new AtomicInteger();
        static volatile CountDownLatch gate = new CountDownLatch(0);
        static volatile CountDownLatch entered = new CountDownLatch(0);
        static volatile boolean rollbackOnly;
        static volatile String failure = "handler failed";

        public static void reset() {
            failure = "handler failed";
            runs.set(0);
            failuresLeft.set(0);
            gate = new CountDownLatch(0);
            entered = new CountDownLatch(0);
            rollbackOnly = false;
            ExhaustedLog.events.clear();
        }

        @Idempotent
        @Override
        public void onMessage(Message message) {
            runs.incrementAndGet();
            entered.countDown();
            try {
                gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (failuresLeft.getAndDecrement() > 0) {
                throw new IllegalStateException(failure);
            }
            if (rollbackOnly) {
                FakeTransactions.status = Status.STATUS_MARKED_ROLLBACK;
            }
        }
    }

    /** An application's scope provider, which may fail during a delivery. */
    @ApplicationScoped
    public static class DeliveryScope implements IdempotencyScopeProvider {
        static volatile RuntimeException failure;
        static volatile Optional<String> scope = Optional.of("tenant-A");

        @Override
        public Optional<String> currentScope() {
            if (failure != null) {
                throw failure;
            }
            return scope;
        }
    }

    /** Records every exhausted message. */
    @ApplicationScoped
    public static class ExhaustedLog {
        static final List<IdempotencyMessageExhausted> events = new CopyOnWriteArrayList<>();

        void on(@Observes IdempotencyMessageExhausted event) {
            events.add(event);
        }
    }
}
