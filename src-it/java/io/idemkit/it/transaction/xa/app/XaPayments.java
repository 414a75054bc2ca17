package io.idemkit.it.transaction.xa.app;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * An {@code @Idempotent @Transactional} CDI method whose record completes inside its transaction
 * (C13), which also writes a business row on the XA data source {@code jdbc/business} and sends a
 * message on the server's broker ({@code jms/cf}, {@code jms/paymentsQ}; the test's {@code web.xml}
 * maps the three names to each runtime's own): two XA resources, so the transaction commits in two
 * phases. {@code holdMillis} keeps it open after both, so that a duplicate waits for it.
 */
@ApplicationScoped
public class XaPayments {

    @Resource(lookup = "java:comp/env/jdbc/business")
    DataSource business;

    @Resource(lookup = "java:comp/env/jms/cf")
    ConnectionFactory messaging;

    @Resource(lookup = "java:comp/env/jms/paymentsQ")
    Queue payments;

    @Idempotent(completion = "in-transaction", leaseTtl = "60s")
    @Transactional
    public String pay(@IdempotencyKey String key, @IdempotencyIgnored long holdMillis)
            throws SQLException, InterruptedException {
        try (Connection c = business.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("INSERT INTO xa_payments (pay_key) VALUES (?)")) {
            ps.setString(1, key);
            ps.executeUpdate();
        }
        try (JMSContext jms = messaging.createContext()) {
            jms.createProducer().send(payments, key);
        }
        Thread.sleep(holdMillis); // holds the transaction open for the test's duplicate
        return "paid " + key;
    }

    /**
     * @return how many messages the queue held, each now consumed
     */
    public int drain() {
        int received = 0;
        try (JMSContext jms = messaging.createContext()) {
            var consumer = jms.createConsumer(payments);
            while (consumer.receive(500) != null) {
                received++;
            }
        }
        return received;
    }
}
