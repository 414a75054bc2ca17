package io.idemkit.transaction;

import io.idemkit.Idempotent;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * The inner half of completion inside the business transaction (contract C13): it runs inside the
 * transaction interceptor of {@code @Transactional} and inside an EJB's container-managed
 * transaction, and completes the record there, with the method's return value, for a call that
 * {@link IdempotentInterceptor} claimed and opened as {@link InTransaction}. Every other call
 * passes straight through.
 */
@Idempotent
@Interceptor
@Priority(InTransactionInterceptor.PRIORITY)
public class InTransactionInterceptor {

    /**
     * {@code Interceptor.Priority.PLATFORM_BEFORE + 300} (300): inside Jakarta Transactions'
     * interceptor ({@code PLATFORM_BEFORE + 200}), outside every application interceptor.
     */
    public static final int PRIORITY = Interceptor.Priority.PLATFORM_BEFORE + 300;

    /** For the container. */
    public InTransactionInterceptor() {}

    @AroundInvoke
    Object around(InvocationContext invocation) throws Exception {
        InTransaction call = InTransaction.take(invocation.getMethod());
        if (call == null) {
            return invocation.proceed();
        }
        Object value = invocation.proceed();
        call.complete(value);
        return value;
    }
}
