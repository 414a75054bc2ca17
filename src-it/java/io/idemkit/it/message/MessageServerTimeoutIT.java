package io.idemkit.it.message;

import static io.idemkit.it.harness.ItRuntime.WILDFLY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.WildFlyServer;
import io.idemkit.it.message.txtimeout.TimedListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * The lease rule of message listeners reads WildFly's transaction timeout (C11.4), the transactions
 * subsystem's default of 300s: a wait longer than that is refused naming the value read from the
 * server, and a wait that the 120s assumption would refuse deploys. On a WildFly server of the
 * test's own, whose deployment scanner writes a failed deployment's reason to {@code <war>.failed}.
 * Open Liberty's reading is proven by {@code MessageMemoryStoreIT}.
 */
@OnRuntimes(
        value = WILDFLY,
        because =
                "reads WildFly's own transaction manager; Open Liberty's reading is proven by"
                        + " MessageMemoryStoreIT, and Payara Micro's is not proven (no server of"
                        + " the test's own on Payara)")
class MessageServerTimeoutIT {

    @Test
    void theLeaseRule_holdsTheWaitToWildFlysTransactionTimeout_readFromTheServer()
            throws Exception {
        WebArchive war = listener("message-timeout", "400s");
        // A wait the 120s assumption would refuse, and WildFly's 300s accepts.
        WebArchive accepted = listener("message-timeout-ok", "150s");
        // An application that deploys, for the start to wait for.
        WebArchive probe =
                ShrinkWrap.create(WebArchive.class, "probe.war")
                        .addAsWebResource(new StringAsset("up"), "index.html");
        try (WildFlyServer server = new WildFlyServer("idemkit-message-timeout", war)) {
            server.addApplication(probe);
            server.addApplication(accepted);
            server.start(server.application(probe).resolve("index.html"));
            Path failed = server.deployment(war).resolveSibling(war.getName() + ".failed");

            Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> Files.exists(failed));
            assertThat(Files.readString(failed))
                    .contains(
                            "The wait timeout of "
                                    + TimedListener.class.getName()
                                    + ".onMessage() (400s) must be shorter than the transaction"
                                    + " timeout (WildFly's transaction timeout, 5m, read from the"
                                    + " server)");
            Path deployed =
                    server.deployment(accepted).resolveSibling(accepted.getName() + ".deployed");
            Path refused =
                    server.deployment(accepted).resolveSibling(accepted.getName() + ".failed");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(120))
                    .until(() -> Files.exists(deployed) || Files.exists(refused));
            assertThat(refused).doesNotExist();
            assertThat(deployed).exists();
        }
    }

    /**
     * An application with the listener, the Jakarta Messaging API (which these runtimes' test
     * servers do not all give an application) and the library, and a wait of {@code wait}.
     */
    static WebArchive listener(String name, String wait) {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, name + ".war")
                        .addClass(TimedListener.class)
                        .addPackages(true, "jakarta.jms")
                        .addAsResource(
                                new StringAsset(
                                        "idemkit.store=memory\n"
                                                + "idemkit.scope-mode=single-tenant\n"
                                                + "idemkit.wait-timeout="
                                                + wait
                                                + "\n"),
                                "META-INF/microprofile-config.properties"));
    }
}
