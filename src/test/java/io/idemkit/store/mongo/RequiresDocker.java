package io.idemkit.store.mongo;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * A test on a real MongoDB in Docker: skipped where there is no Docker, unless {@value #SWITCH} is
 * {@code true}, which a CI that has Docker sets (CONTRIBUTING.md), so that a broken Docker there
 * fails the build instead of skipping every real-MongoDB test and staying green.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RequiresDocker.Condition.class)
@interface RequiresDocker {

    /** The system property that turns the skip into a failure. */
    String SWITCH = "idemkit.require-docker";

    /** JUnit's side of the rule; {@code RealMongo.DockerRequired} is jqwik's. */
    final class Condition implements ExecutionCondition {

        /**
         * @return why a test of this kind does not run here, or {@code null} when it runs: Docker
         *     is there, or it is required, and the test then fails on Docker's absence
         */
        static String skipReason() {
            if (Boolean.getBoolean(SWITCH) || DockerClientFactory.instance().isDockerAvailable()) {
                return null;
            }
            return "Docker is not available (set -D" + SWITCH + "=true to fail instead)";
        }

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            String reason = skipReason();
            return reason == null
                    ? ConditionEvaluationResult.enabled("Docker is available or required")
                    : ConditionEvaluationResult.disabled(reason);
        }
    }
}
