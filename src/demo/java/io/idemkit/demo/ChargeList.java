package io.idemkit.demo;

import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;

/**
 * The answer of {@code GET /api/payments}.
 *
 * @param count how many charges were made
 * @param charges the charges, oldest first
 */
@JsonbPropertyOrder({"count", "charges"})
public record ChargeList(int count, List<Charge> charges) {}
