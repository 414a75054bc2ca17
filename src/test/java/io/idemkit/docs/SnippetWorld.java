package io.idemkit.docs;

import io.github.resilience4j.retry.Retry;
import io.idemkit.admin.IdempotencyAdmin;
import io.idemkit.client.IdempotentRetry;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import java.net.URI;
import java.util.List;

/**
 * What the documentation's snippets take as given: the application's own types and the fields a
 * snippet uses without declaring them. Every snippet is compiled in a class that extends this one
 * ({@link DocsSnippetsTest}); nothing here runs.
 */
public abstract class SnippetWorld {

    /** A charge as the payment provider answers it. */
    public record Charge(String id) {}

    /** What a charge is asked with. */
    public record ChargeRequest(long amount) {}

    /** A payment of the application's own. */
    public record Payment(String id) {}

    /** An amount. */
    public record Money(long cents) {}

    /** What a payment method returns. */
    public record Receipt(String id) {}

    /** An item of a batch. */
    public record Item(String id) {}

    /** An order. */
    public record Order(String id) {}

    /** The application's payment service, as the snippets call it. */
    public interface PaymentService {
        Charge charge(ChargeRequest request);

        Charge charge(Order order);

        Charge charge(Item item);

        Payment charge(Charge charge);
    }

    /** The application's bean behind a message-driven bean. */
    public interface Quotes {
        String price(String key, String item);
    }

    protected PaymentService payments;
    protected IdempotentRetry retry;
    protected Retry paymentsRetry;
    protected URI base;
    protected ChargeRequest request;
    protected Order order;
    protected List<Item> items;
    protected JMSContext context;
    protected Queue orders;
    protected Queue deadLetters;
    protected String body;
    protected IdempotencyAdmin admin;
    protected String key;
    protected String tenant;
    protected String effectiveKey;

    /** The items of a batch not done yet. */
    protected List<Item> unfinished(List<Item> batch) {
        return batch;
    }
}
