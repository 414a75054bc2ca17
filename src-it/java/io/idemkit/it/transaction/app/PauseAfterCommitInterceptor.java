package io.idemkit.it.transaction.app;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Opens the window a crash after the commit falls into: it runs outside the transaction interceptor
 * of {@code @Transactional} ({@code PLATFORM_BEFORE + 200}) and inside idemkit's ({@code + 100}),
 * so that when the call returns to it the business transaction has committed and idemkit has not
 * yet seen the result. Given a marker file (the method's fourth argument), it says it paused and
 * waits for the file, which the test never creates: it kills the server instead.
 */
@PauseAfterCommit
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 150)
public class PauseAfterCommitInterceptor {

    @AroundInvoke
    Object pause(InvocationContext invocation) throws Exception {
        Object value = invocation.proceed();
        Object[] arguments = invocation.getParameters();
        Progress.pausedAfterCommit((String) arguments[1]);
        Progress.awaitMarker((String) arguments[3]);
        return value;
    }
}
