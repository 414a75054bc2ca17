package io.idemkit.bench;

import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The one HTTP exchange every benchmark uses: a {@code POST /orders} with a query and a JSON body
 * of about 1 KiB (nested objects, an array, numbers of both kinds, non-ASCII text), and the {@code
 * 201} response of about 1 KiB that the operation stores.
 */
final class SampleExchange {

    static final String METHOD = "POST";
    static final String PATH = "/orders";
    static final String QUERY = "expand=items&expand=customer&locale=de-CH&dryRun=false";
    static final String CONTENT_TYPE = "application/json; charset=utf-8";

    /** Single-tenant mode: the scope is empty. */
    static final String SCOPE = "";

    static final byte[] REQUEST_BODY =
            """
            {
              "customer": {
                "id": "c-7f3a9e21",
                "name": "Zoë Müller-Łukasiewicz",
                "email": "zoe.mueller@example.org",
                "address": {
                  "street": "Bahnhofstraße 12",
                  "city": "Zürich",
                  "postalCode": "8001",
                  "country": "CH"
                },
                "tags": ["vip", "früh", "日本語"]
              },
              "currency": "CHF",
              "items": [
                {"sku": "SKU-10042", "title": "Café crème, 1 kg", "quantity": 2,
                 "unitPrice": 18.9, "options": {"grind": "espresso", "gift": false}},
                {"sku": "SKU-20817", "title": "Thé vert « Sencha »", "quantity": 1,
                 "unitPrice": 12.5, "options": {"grind": null, "gift": true}},
                {"sku": "SKU-31337", "title": "Tasse — porcelaine ☕", "quantity": 4,
                 "unitPrice": 7.25, "options": {"colour": "bleu", "gift": false}}
              ],
              "shipping": {"method": "express", "price": 9.0, "notes": "Bitte klingeln ✓"},
              "payment": {"method": "card", "token": "tok_1NqX8v2eZvKYlo2C0a9bT3mK",
                          "amountMinor": 9525, "threeDSecure": true},
              "metadata": {"channel": "web", "campaign": "hiver-2026", "ab": 0.125,
                           "clientVersion": "4.12.0", "retries": 0}
            }
            """
                    .getBytes(StandardCharsets.UTF_8);

    static final StoredResult CREATED =
            new StoredResult(
                    201,
                    List.of(
                            new StoredHeader("Content-Type", "application/json"),
                            new StoredHeader("Location", "/orders/o-5d2c81f0")),
                    """
                    {
                      "id": "o-5d2c81f0",
                      "status": "accepted",
                      "createdAt": "2026-12-02T10:15:30.123Z",
                      "customer": {"id": "c-7f3a9e21", "name": "Zoë Müller-Łukasiewicz"},
                      "currency": "CHF",
                      "lines": [
                        {"sku": "SKU-10042", "title": "Café crème, 1 kg", "quantity": 2,
                         "lineTotalMinor": 3780, "taxRate": 0.081},
                        {"sku": "SKU-20817", "title": "Thé vert « Sencha »", "quantity": 1,
                         "lineTotalMinor": 1250, "taxRate": 0.081},
                        {"sku": "SKU-31337", "title": "Tasse — porcelaine ☕", "quantity": 4,
                         "lineTotalMinor": 2900, "taxRate": 0.081}
                      ],
                      "shipping": {"method": "express", "priceMinor": 900,
                                   "estimatedDelivery": "2026-12-04"},
                      "totals": {"netMinor": 8830, "taxMinor": 695, "grossMinor": 9525},
                      "links": {"self": "/orders/o-5d2c81f0",
                                "payment": "/orders/o-5d2c81f0/payment",
                                "cancel": "/orders/o-5d2c81f0/cancel"},
                      "warnings": []
                    }
                    """
                            .getBytes(StandardCharsets.UTF_8));

    private SampleExchange() {}
}
