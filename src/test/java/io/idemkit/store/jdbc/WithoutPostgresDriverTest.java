package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * An application on H2 (or MariaDB) without the PostgreSQL driver: the library's classes and H2 in
 * a class loader that cannot see {@code org.postgresql}, as in such an application. The store
 * claims, releases, waits and reports its health, and never loads the one class that names the
 * driver ({@link PgCompletionListener}).
 */
class WithoutPostgresDriverTest {

    /** A loader of the library and H2 only, that says which classes it loaded. */
    private static final class Isolated extends URLClassLoader {
        Isolated(URL... urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        boolean loaded(String name) {
            return findLoadedClass(name) != null;
        }
    }

    @Test
    void storeOnH2_worksWithoutThePostgresDriver_andNeverLoadsItsListener() throws Exception {
        try (Isolated loader =
                new Isolated(codeOf(JdbcIdempotencyStore.class), codeOf(org.h2.Driver.class))) {
            assertThatThrownBy(() -> Class.forName("org.postgresql.PGConnection", false, loader))
                    .isInstanceOf(ClassNotFoundException.class);
            DataSource h2 =
                    (DataSource)
                            loader.loadClass("org.h2.jdbcx.JdbcDataSource")
                                    .getConstructor()
                                    .newInstance();
            call(h2, "setURL", "jdbc:h2:mem:nopg" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            Class<?> settingsType = loader.loadClass(JdbcStoreSettings.class.getName());
            Object settings =
                    settingsType
                            .getConstructor(String.class, boolean.class)
                            .newInstance("idemkit_records", true);
            Object store =
                    loader.loadClass(JdbcIdempotencyStore.class.getName())
                            .getConstructor(DataSource.class, settingsType)
                            .newInstance(h2, settings);
            String key = "a".repeat(64);

            call(store, "start");
            Object claim = call(store, "claim", key, "f".repeat(64), 1, Duration.ofMinutes(1));
            assertThat(call(store, "release", key, call(claim, "token"))).isEqualTo(true);
            assertThat(call(store, "awaitCompletion", key, Duration.ofMillis(50)))
                    .isEqualTo(Optional.empty());
            Object health = call(store, "health");
            call(store, "close");

            assertThat(call(health, "up")).isEqualTo(true);
            assertThat(((Map<?, ?>) call(health, "details")).get("notifications"))
                    .isEqualTo("polling");
            assertThat(loader.loaded(JdbcIdempotencyStore.class.getName())).isTrue();
            assertThat(loader.loaded(PgCompletionListener.class.getName())).isFalse();
        }
    }

    private static URL codeOf(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toUri()
                .toURL();
    }

    private static Object call(Object target, String name, Object... args) throws Exception {
        for (Method m : target.getClass().getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                return m.invoke(target, args);
            }
        }
        throw new NoSuchMethodException(name);
    }
}
