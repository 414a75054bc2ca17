package io.idemkit.policy;

import io.idemkit.core.CompletionMode;
import io.idemkit.core.OperationPolicy;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The deployment's check of methods whose record completes inside their transaction ({@code
 * completion=in-transaction}, contract C13): refused where it cannot hold, so that no call finds
 * out at run time. It needs Jakarta Transactions, the JDBC store, and a method that runs in a
 * transaction on every call: {@code @Transactional} with {@code REQUIRED}, {@code REQUIRES_NEW} or
 * {@code MANDATORY}, or an EJB with a container-managed transaction of one of those kinds. JAX-RS
 * resource methods and message-driven beans ignore the setting, and a method that returns a {@code
 * CompletionStage} completes after its stage, as always. The annotations are read by name, so that
 * neither API has to be there.
 */
public final class CompletionChecks {

    private static final String TRANSACTIONAL = "jakarta.transaction.Transactional";
    private static final String TRANSACTION_ATTRIBUTE = "jakarta.ejb.TransactionAttribute";
    private static final String TRANSACTION_MANAGEMENT = "jakarta.ejb.TransactionManagement";
    private static final Set<String> SESSION_BEANS =
            Set.of("jakarta.ejb.Stateless", "jakarta.ejb.Stateful", "jakarta.ejb.Singleton");
    private static final Set<String> ALWAYS_IN_A_TRANSACTION =
            Set.of("REQUIRED", "REQUIRES_NEW", "MANDATORY");

    private CompletionChecks() {}

    /**
     * @param methods the {@code @Idempotent} methods
     * @param policies their resolved policies
     * @param storeProblem why the store cannot complete records inside a transaction (C13), as the
     *     chosen bundled store says; empty for a store that can, or for an application's own store,
     *     which says so at its first use. Asked once, before the methods are checked
     * @return one problem per method that asks for it where it cannot hold
     */
    public static List<String> problems(
            List<MethodSite> methods,
            Map<MethodRef, OperationPolicy> policies,
            Supplier<Optional<String>> storeProblem) {
        boolean jta = jtaPresent();
        Optional<String> store = storeProblem.get();
        List<String> problems = new ArrayList<>();
        for (MethodSite site : methods) {
            MethodRef ref = site.ref();
            OperationPolicy policy = policies.get(ref);
            if (policy == null
                    || policy.completion() != CompletionMode.IN_TRANSACTION
                    || site.resource()
                    || site.receivesMessages()
                    || CompletionStage.class.isAssignableFrom(ref.method().getReturnType())) {
                continue;
            }
            String why =
                    !jta
                            ? "the runtime has no Jakarta Transactions"
                            : store.orElseGet(() -> transactionProblem(ref).orElse(null));
            if (why != null) {
                problems.add(
                        "@Idempotent(completion=in-transaction) on "
                                + ref
                                + " cannot hold: "
                                + why
                                + ". Set completion=after-commit there, or fix the cause.");
            }
        }
        return problems;
    }

    private static boolean jtaPresent() {
        try {
            Class.forName(
                    "jakarta.transaction.TransactionSynchronizationRegistry",
                    false,
                    CompletionChecks.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * @return why the method may run without a transaction, or empty when it always has one
     */
    private static Optional<String> transactionProblem(MethodRef ref) {
        Class<?> type = ref.beanClass();
        Method method = ref.method();
        Annotation transactional = annotation(method, type, TRANSACTIONAL);
        if (transactional != null) {
            String kind = enumMember(transactional, "value");
            return ALWAYS_IN_A_TRANSACTION.contains(kind)
                    ? Optional.empty()
                    : Optional.of("@Transactional(" + kind + ") may run it without a transaction");
        }
        if (!isSessionBean(type)) {
            return Optional.of(
                    "it is neither @Transactional nor a method of an EJB, so it runs in no"
                            + " transaction of its own");
        }
        Annotation management = annotation(type, TRANSACTION_MANAGEMENT);
        if (management != null && "BEAN".equals(enumMember(management, "value"))) {
            return Optional.of("its EJB manages its own transactions, which end inside the method");
        }
        Annotation attribute = annotation(method, type, TRANSACTION_ATTRIBUTE);
        String kind = attribute == null ? "REQUIRED" : enumMember(attribute, "value");
        return ALWAYS_IN_A_TRANSACTION.contains(kind)
                ? Optional.empty()
                : Optional.of(
                        "@TransactionAttribute(" + kind + ") may run it without a transaction");
    }

    private static boolean isSessionBean(Class<?> type) {
        for (Annotation a : type.getAnnotations()) {
            if (SESSION_BEANS.contains(a.annotationType().getName())) {
                return true;
            }
        }
        return false;
    }

    private static Annotation annotation(Method method, Class<?> type, String name) {
        Annotation onMethod = annotation(method.getAnnotations(), name);
        return onMethod != null ? onMethod : annotation(type, name);
    }

    private static Annotation annotation(Class<?> type, String name) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            Annotation found = annotation(c.getAnnotations(), name);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static Annotation annotation(Annotation[] annotations, String name) {
        for (Annotation a : annotations) {
            if (a.annotationType().getName().equals(name)) {
                return a;
            }
        }
        return null;
    }

    private static String enumMember(Annotation annotation, String member) {
        try {
            Object value = annotation.annotationType().getMethod(member).invoke(annotation);
            return ((Enum<?>) value).name();
        } catch (ReflectiveOperationException | ClassCastException e) {
            return "?";
        }
    }
}
