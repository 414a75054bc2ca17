package io.idemkit.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * An application's record, compared once, no longer keeps the application's class loader from being
 * collected after {@link RecordEqualsCache#release} (C15.1). The application is a class loader of
 * its own that defines {@link Compared}; the check runs full collections until the loader is gone.
 */
@EnabledForJreRange(
        max = JRE.JAVA_17,
        disabledReason =
                "Java 18 and later hold another loader's type only softly (JDK-8078641), so the"
                        + " strong cache this releases is Java 17's")
class RecordEqualsCacheTest {

    /** The application's record; loaded here by a class loader of its own. */
    public record Compared(String value) {}

    @Test
    void withoutTheRelease_theLastComparedRecordHoldsItsLoader() throws Exception {
        WeakReference<ClassLoader> loader = compareInALoaderOfItsOwn();

        assertThat(collected(loader, 1)).as("held by the JDK's cache").isFalse();
        RecordEqualsCache.release();
        assertThat(collected(loader, 10)).as("collected once released").isTrue();
    }

    private static WeakReference<ClassLoader> compareInALoaderOfItsOwn() throws Exception {
        URL classes = Compared.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader application = new URLClassLoader(new URL[] {classes}, null)) {
            Class<?> type = application.loadClass(Compared.class.getName());
            assertThat(type.getClassLoader()).isSameAs(application);
            Object a = type.getConstructor(String.class).newInstance("a");
            Object b = type.getConstructor(String.class).newInstance("b");
            assertThat(a.equals(b)).isFalse();
            return new WeakReference<>(application);
        }
    }

    /** Runs full collections until {@code loader} is collected, or for {@code seconds}. */
    private static boolean collected(WeakReference<ClassLoader> loader, int seconds)
            throws InterruptedException {
        long start = System.nanoTime();
        while (!loader.refersTo(null)
                && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(seconds)) {
            System.gc();
            Thread.sleep(100);
        }
        return loader.refersTo(null);
    }
}
