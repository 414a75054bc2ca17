package io.idemkit.it.message.app;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Collections;
import java.util.Enumeration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import javax.naming.InitialContext;

/**
 * The tests' hands inside the server: sends persistent messages to the queues (each send a new
 * {@code JMSMessageID}, as a producer's re-send is), and reports what the beans did.
 *
 * <p>The connection factory and the queues are resource references ({@code java:comp/env/jms/...}),
 * which each runtime binds its own way: Open Liberty by default to the server's objects of the same
 * JNDI name, WildFly through the WAR's {@code web.xml} ({@code ArtemisBindings}).
 */
@Path("messages")
@ApplicationScoped
@Produces(MediaType.TEXT_PLAIN)
public class MessagesResource {

    @Resource(name = "jms/cf")
    ConnectionFactory factory;

    @Resource(name = "jms/ordersQ")
    Queue orders;

    @Resource(name = "jms/quotesQ")
    Queue quotes;

    @Resource(name = "jms/repliesQ")
    Queue replies;

    // The server's managed executor, whose threads may use the server's JMS resources.
    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ExecutorService executor;

    @Inject Ledger ledger;

    /**
     * Sends {@code times} messages at once from as many threads, each a new message with the same
     * properties; without {@code key}, no {@code IdempotencyKey} property.
     */
    @POST
    public String send(
            @QueryParam("tag") String tag,
            @QueryParam("mode") @DefaultValue("ok") String mode,
            @QueryParam("key") String key,
            @QueryParam("marker") String marker,
            @QueryParam("times") @DefaultValue("1") int times,
            @QueryParam("commitMillis") @DefaultValue("0") long commitMillis)
            throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch sent = new CountDownLatch(times);
        for (int i = 0; i < times; i++) {
            executor.execute(
                    () -> {
                        try (JMSContext context = factory.createContext()) {
                            JMSProducer producer =
                                    context.createProducer()
                                            .setProperty("tag", tag)
                                            .setProperty("mode", mode)
                                            .setProperty("commitMillis", commitMillis);
                            if (key != null && !key.isEmpty()) {
                                producer.setProperty("IdempotencyKey", key);
                            }
                            if (marker != null) {
                                producer.setProperty("marker", marker);
                            }
                            start.await();
                            producer.send(orders, "order " + tag);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } finally {
                            sent.countDown();
                        }
                    });
        }
        start.countDown();
        if (!sent.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("sending timed out");
        }
        return "sent";
    }

    /** How many times something happened for a tag: runs, done, blocked, exhausted, quotes. */
    @GET
    @Path("{what}/{tag}")
    public String count(@PathParam("what") String what, @PathParam("tag") String tag) {
        return Integer.toString(ledger.get(what, tag));
    }

    /**
     * How many messages of a tag are still on the orders queue, unacknowledged; or on the queue
     * whose JNDI name is {@code queue} (a broker's dead-letter queue).
     */
    @GET
    @Path("pending/{tag}")
    public String pending(@PathParam("tag") String tag, @QueryParam("queue") String queue)
            throws Exception {
        Queue browsed = queue == null ? orders : InitialContext.doLookup(queue);
        try (JMSContext context = factory.createContext();
                QueueBrowser browser = context.createBrowser(browsed, "tag = '" + tag + "'")) {
            return Integer.toString(
                    Collections.list((Enumeration<?>) browser.getEnumeration()).size());
        }
    }

    /** Sends a quote request with a key, and waits for its reply. */
    @POST
    @Path("quote")
    public String quote(@QueryParam("key") String key, @QueryParam("item") String item) {
        String correlation = UUID.randomUUID().toString();
        try (JMSContext context = factory.createContext()) {
            context.createProducer()
                    .setProperty("IdempotencyKey", key)
                    .setJMSCorrelationID(correlation)
                    .setJMSReplyTo(replies)
                    .send(quotes, item);
            try (JMSConsumer consumer =
                    context.createConsumer(replies, "JMSCorrelationID = '" + correlation + "'")) {
                String reply = consumer.receiveBody(String.class, 30_000);
                if (reply == null) {
                    throw new IllegalStateException("no reply to " + correlation);
                }
                return reply;
            }
        }
    }
}
