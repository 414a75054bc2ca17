package io.idemkit.it.message.app;

import jakarta.annotation.Resource;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;

/**
 * Request and reply (the reference's queue-result-bearing-replay): this bean is not itself
 * {@code @Idempotent}; it calls an {@code @Idempotent} method with the request's key and replies to
 * {@code JMSReplyTo} with what it returns, so that a duplicate request gets the first reply again
 * while the operation runs once.
 */
@MessageDriven(name = "QuotesBean")
public class QuotesBean implements MessageListener {

    @Inject Quotes quotes;

    @Resource(name = "jms/cf")
    ConnectionFactory factory;

    @Override
    public void onMessage(Message message) {
        try (JMSContext context = factory.createContext()) {
            String price =
                    quotes.price(
                            message.getStringProperty("IdempotencyKey"),
                            ((TextMessage) message).getText());
            context.createProducer()
                    .setJMSCorrelationID(message.getJMSCorrelationID())
                    .send(message.getJMSReplyTo(), price);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
