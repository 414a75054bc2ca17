package io.idemkit.it.harness;

import java.lang.reflect.AnnotatedElement;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/** {@link OnRuntimes}: enables a class or method on its runtimes only. */
public final class OnRuntimesCondition implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return evaluate(context.getElement(), ItRuntime.current());
    }

    /**
     * @param element the class or method, if any
     * @param runtime the runtime of the execution
     * @return enabled when {@code element} has no {@link OnRuntimes} or names {@code runtime}
     */
    static ConditionEvaluationResult evaluate(
            Optional<AnnotatedElement> element, ItRuntime runtime) {
        Optional<OnRuntimes> on = AnnotationSupport.findAnnotation(element, OnRuntimes.class);
        if (on.isEmpty()) {
            return ConditionEvaluationResult.enabled("not limited to some runtimes");
        }
        List<ItRuntime> runtimes = Arrays.asList(on.get().value());
        if (runtimes.isEmpty()) {
            throw new IllegalStateException(
                    "@OnRuntimes on " + element.get() + " names no runtime to run on");
        }
        String names = runtimes.stream().map(ItRuntime::title).collect(Collectors.joining(", "));
        if (runtimes.contains(runtime)) {
            return ConditionEvaluationResult.enabled("runs on " + names);
        }
        return ConditionEvaluationResult.disabled(
                "not on "
                        + runtime.title()
                        + ", runs on "
                        + names
                        + " only: "
                        + on.get().because());
    }
}
