package io.idemkit.config;

import java.util.List;

/**
 * The {@code idemkit.*} configuration broke one or more rules. It fails the deployment; each
 * problem reads like {@code Invalid idemkit.lease-ttl=-5s: must be positive}.
 */
public final class InvalidConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    /**
     * @param problems one message per broken rule, never empty
     */
    public InvalidConfigurationException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
        if (this.problems.isEmpty()) {
            throw new IllegalArgumentException("at least one problem");
        }
    }

    /**
     * @return one message per broken rule
     */
    public List<String> problems() {
        return problems;
    }
}
