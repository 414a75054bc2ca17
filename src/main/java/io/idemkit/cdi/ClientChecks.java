package io.idemkit.cdi;

import io.idemkit.client.AttemptInterceptor;
import io.idemkit.client.IdempotentOperation;
import io.idemkit.client.OperationInterceptor;
import io.idemkit.client.OperationKey;
import io.idemkit.client.StepKey;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.Config;

/**
 * The client's deployment checks (C14): where {@link OperationKey} may stand, and Fault Tolerance's
 * interceptor priority (its keys are {@code client.ClientSection}'s). Stateless.
 */
final class ClientChecks {

    private ClientChecks() {}

    /**
     * @return a definition error for each method with more than one {@link OperationKey} (or {@link
     *     StepKey}) parameter, or with one but no {@link IdempotentOperation} on it or its class
     */
    static <T> List<String> annotationProblems(AnnotatedType<T> type) {
        List<String> problems = new ArrayList<>();
        problems.addAll(annotationProblems(type, OperationKey.class, "an operation has one key"));
        problems.addAll(annotationProblems(type, StepKey.class, "a step has one name"));
        return problems;
    }

    private static <T> List<String> annotationProblems(
            AnnotatedType<T> type, Class<? extends Annotation> marker, String why) {
        List<String> problems = new ArrayList<>();
        String name = "@" + marker.getSimpleName();
        boolean onType = type.isAnnotationPresent(IdempotentOperation.class);
        for (AnnotatedMethod<? super T> method : type.getMethods()) {
            long keys =
                    method.getParameters().stream()
                            .filter(p -> p.isAnnotationPresent(marker))
                            .count();
            if (keys == 0) {
                continue;
            }
            String where =
                    method.getJavaMember().getDeclaringClass().getName()
                            + "."
                            + method.getJavaMember().getName()
                            + "()";
            if (keys > 1) {
                problems.add(
                        "More than one "
                                + name
                                + " parameter on "
                                + where
                                + ": "
                                + why
                                + "; combine the values into one argument");
            }
            if (!onType && !method.isAnnotationPresent(IdempotentOperation.class)) {
                problems.add(
                        name
                                + " on "
                                + where
                                + " has no effect without @IdempotentOperation on the method or"
                                + " its class");
            }
        }
        return problems;
    }

    /**
     * Where the application's {@link IdempotentOperation}s stand, for the check of MicroProfile
     * Fault Tolerance's interceptor priority (C14.3): its interceptor must run between the
     * operation interceptor (1100) and the attempt interceptor (4100), or each of its retries sends
     * the requests under new keys. Thread-safe: noted while types are processed.
     */
    static final class FaultTolerancePlacement {

        /**
         * Fault Tolerance's setting of its interceptor's priority (SmallRye's, every runtime's).
         */
        static final String PRIORITY_KEY = "mp.fault.tolerance.interceptor.priority";

        private static final String RETRY = "org.eclipse.microprofile.faulttolerance.Retry";
        private static final System.Logger LOG = System.getLogger(ClientChecks.class.getName());

        private final Set<String> operations = ConcurrentHashMap.newKeySet();
        private final Set<String> retried = ConcurrentHashMap.newKeySet();

        /** Notes the type's {@link IdempotentOperation} methods, and those with {@code @Retry}. */
        <T> void note(AnnotatedType<T> type) {
            if (type.isAnnotationPresent(jakarta.interceptor.Interceptor.class)) {
                // The binding on idemkit's own interceptors names what they intercept.
                return;
            }
            boolean onType = type.isAnnotationPresent(IdempotentOperation.class);
            boolean retryOnType = hasRetry(type.getAnnotations());
            for (AnnotatedMethod<? super T> method : type.getMethods()) {
                if (!onType && !method.isAnnotationPresent(IdempotentOperation.class)) {
                    continue;
                }
                String where =
                        method.getJavaMember().getDeclaringClass().getName()
                                + "."
                                + method.getJavaMember().getName()
                                + "()";
                operations.add(where);
                if (retryOnType || hasRetry(method.getAnnotations())) {
                    retried.add(where);
                }
            }
        }

        /**
         * Checks Fault Tolerance's priority against the operations noted. Nothing is said where
         * none is used, or the priority is not set or not a number (Fault Tolerance reports that).
         *
         * @return a deployment problem where an {@code @IdempotentOperation} method also carries
         *     {@code @Retry}: its retries would charge again under new keys; empty otherwise, after
         *     one WARNING where operations are used but no {@code @Retry} on them was seen
         */
        Optional<String> check(Config config) {
            if (operations.isEmpty()) {
                return Optional.empty();
            }
            Optional<String> raw = config.getOptionalValue(PRIORITY_KEY, String.class);
            int priority;
            try {
                priority = Integer.parseInt(raw.orElse("").strip());
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
            if (priority > OperationInterceptor.PRIORITY
                    && priority < AttemptInterceptor.PRIORITY) {
                return Optional.empty();
            }
            String where =
                    priority <= OperationInterceptor.PRIORITY
                            ? "outside idemkit's operation interceptor ("
                                    + OperationInterceptor.PRIORITY
                                    + "): each Fault Tolerance retry of an @IdempotentOperation"
                                    + " method would be a new operation"
                            : "inside idemkit's attempt interceptor ("
                                    + AttemptInterceptor.PRIORITY
                                    + "): a Fault Tolerance retry of an @IdempotentOperation method"
                                    + " would number its requests onward";
            String text =
                    "Invalid "
                            + PRIORITY_KEY
                            + "="
                            + priority
                            + ": it places Fault Tolerance's interceptor "
                            + where
                            + ", with new idempotency keys, so the server runs the retried"
                            + " requests again. Leave it at its default (4010) or set it between "
                            + (OperationInterceptor.PRIORITY + 1)
                            + " and "
                            + (AttemptInterceptor.PRIORITY - 1);
            if (!retried.isEmpty()) {
                return Optional.of(
                        text + "; @Retry is on " + retried.stream().sorted().findFirst().get());
            }
            LOG.log(System.Logger.Level.WARNING, text);
            return Optional.empty();
        }

        private static boolean hasRetry(Set<java.lang.annotation.Annotation> annotations) {
            return annotations.stream().anyMatch(a -> a.annotationType().getName().equals(RETRY));
        }
    }
}
