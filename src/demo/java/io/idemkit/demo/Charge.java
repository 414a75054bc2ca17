package io.idemkit.demo;

import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.Instant;

/**
 * A charge the demo really made: one per executed {@code POST /api/payments}, never one per replay.
 *
 * @param id the charge's id
 * @param amount the amount in minor units
 * @param currency the currency code, upper case
 * @param to the account credited
 * @param chargedAt when the handler made it
 */
@JsonbPropertyOrder({"id", "amount", "currency", "to", "chargedAt"})
public record Charge(String id, long amount, String currency, String to, Instant chargedAt) {}
