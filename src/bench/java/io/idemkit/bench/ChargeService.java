package io.idemkit.bench;

import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.util.List;

/**
 * The interceptor benchmark's bean: a payment call of a realistic shape, once with {@link
 * Idempotent} and once, identical, without. Both go through the same CDI client proxy, so the
 * proxy's cost is in the baseline too. The body does trivial work: it builds a receipt.
 */
@ApplicationScoped
public class ChargeService {

    private long executions;

    /**
     * @param requestId the caller's idempotency key
     * @param request what to charge
     * @return the receipt
     */
    @Idempotent
    public Receipt charge(@IdempotencyKey String requestId, ChargeRequest request) {
        return receipt(requestId, request);
    }

    /**
     * The same method, not intercepted: the direct call.
     *
     * @param requestId the caller's request id
     * @param request what to charge
     * @return the receipt
     */
    public Receipt chargeDirect(String requestId, ChargeRequest request) {
        return receipt(requestId, request);
    }

    /**
     * @return how many times either body ran; the benchmark runs on one thread
     */
    public long executions() {
        return executions;
    }

    private Receipt receipt(String requestId, ChargeRequest request) {
        executions++;
        return new Receipt(
                "rc_" + requestId,
                request.customer(),
                request.amount(),
                request.currency(),
                request.items().size(),
                "captured");
    }

    /**
     * A charge: the fingerprinted argument.
     *
     * @param amount the total
     * @param currency ISO 4217 code
     * @param customer the customer's id
     * @param description shown on the statement
     * @param items the order lines
     */
    public record ChargeRequest(
            BigDecimal amount,
            String currency,
            String customer,
            String description,
            List<LineItem> items) {}

    /**
     * One order line.
     *
     * @param sku the article
     * @param name its name
     * @param quantity how many
     * @param unitPrice the price of one
     */
    public record LineItem(String sku, String name, int quantity, BigDecimal unitPrice) {}

    /**
     * The result, stored and replayed.
     *
     * @param id the receipt's id
     * @param customer the customer's id
     * @param amount the total charged
     * @param currency ISO 4217 code
     * @param lines how many order lines
     * @param status the charge's state
     */
    public record Receipt(
            String id,
            String customer,
            BigDecimal amount,
            String currency,
            int lines,
            String status) {}
}
