package io.idemkit.it.faults.app;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The fault tests' long operations: {@code @Idempotent} CDI methods, whose lease the heartbeat
 * renews (C4.7, on by default for methods), with a 6 s lease (a beat of 2 s) and a 30 s wait, so
 * that a duplicate on another node outwaits a lapsed lease and takes the key over. Each sleeps for
 * {@code ms}; a lost lease interrupts it ({@code idemkit.heartbeat.interrupt}, default on), which
 * it records ({@link FaultRuns#told}) before it fails.
 */
@ApplicationScoped
public class FaultWork {

    @Inject FaultRuns runs;

    @Resource(lookup = "java:comp/env/jdbc/business")
    DataSource business;

    /** A long operation with no business write. */
    @Idempotent(leaseTtl = "6s", waitTimeout = "30s")
    public String slow(
            @IdempotencyKey String key,
            @IdempotencyIgnored String tag,
            @IdempotencyIgnored long ms) {
        runs.ran(tag);
        hold(tag, ms);
        return "done " + key;
    }

    /**
     * A payment whose record completes inside its JTA transaction (C13): the business row ({@code
     * fault_payments}) and the record commit or roll back together.
     */
    @Idempotent(completion = "in-transaction", leaseTtl = "6s", waitTimeout = "30s")
    @Transactional
    public String pay(
            @IdempotencyKey String key,
            @IdempotencyIgnored String tag,
            @IdempotencyIgnored long ms) {
        try (Connection c = business.getConnection();
                PreparedStatement insert =
                        c.prepareStatement(
                                "INSERT INTO fault_payments (pay_key, tag) VALUES (?, ?)")) {
            insert.setString(1, key);
            insert.setString(2, tag);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("the business insert failed: " + e, e);
        }
        runs.ran(tag);
        hold(tag, ms);
        return "paid " + key;
    }

    private void hold(String tag, long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            runs.told(tag);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: the lease was lost");
        }
    }
}
