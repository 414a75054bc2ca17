package io.idemkit.http;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.RequestScoped;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The fallback of {@link ServletRequestEnd} where the application cannot see the Servlet API:
 * tracks the claims of one request, and releases those still unended when the request context ends
 * (contract C6.7). Request-scoped: one per claimed HTTP request. A suspended resource whose request
 * then ends without the response filter is not covered on Open Liberty: its claim waits for the
 * lease (a limit stated in docs/limits.md; the Servlet API path has no such gap).
 */
@RequestScoped
public class UnendedExecutions {

    private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();

    void track(Exchange exchange) {
        exchanges.add(exchange);
    }

    @PreDestroy
    void releaseUnended() {
        for (Exchange exchange : exchanges) {
            exchange.releaseIfUnended();
        }
        exchanges.clear();
    }
}
