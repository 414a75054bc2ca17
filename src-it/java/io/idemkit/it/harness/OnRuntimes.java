package io.idemkit.it.harness;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The runtimes an IT class or test method runs on ({@link ItRuntime#current()}); on any other it is
 * reported as skipped, with a reason that names the runtime it was skipped on, the runtimes it runs
 * on, and {@link #because()}: never silently left out. Like JUnit's own conditions it is not
 * inherited: a subclass names its own runtimes.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(OnRuntimesCondition.class)
public @interface OnRuntimes {

    /**
     * @return the runtimes it runs on, at least one
     */
    ItRuntime[] value();

    /**
     * @return why it does not run on the others
     */
    String because();
}
