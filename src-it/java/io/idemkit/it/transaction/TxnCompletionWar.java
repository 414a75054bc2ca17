package io.idemkit.it.transaction;

import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.transaction.app.TxnApplication;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The application of {@link TxnCompletionIT} and its data sources: on Open Liberty the server's
 * ({@code jdbc/idemkit}, not enlisted, and {@code jdbc/business}, JTA); on WildFly and Payara Micro
 * both defined in its {@code web.xml}, which points the beans' {@code jdbc/business} at its own.
 */
final class TxnCompletionWar {

    static final String APP = "txn-completion";
    private static final String BUSINESS = "java:app/jdbc/business";

    private TxnCompletionWar() {}

    /**
     * @param serverDefined whether the data sources are the server's (Open Liberty)
     * @return the application, without its {@code web.xml}
     */
    static WebArchive of(boolean serverDefined) {
        String dataSources =
                serverDefined
                        ? ItPostgres.STORE_CONFIG
                                + "idemkit.jdbc.transaction-datasource=jdbc/business\n"
                        : ItPostgres.APP_STORE_CONFIG
                                + "idemkit.jdbc.transaction-datasource="
                                + BUSINESS
                                + "\n";
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, APP + ".war")
                        .addPackage(TxnApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset(
                                        "idemkit.scope-mode=single-tenant\n"
                                                + dataSources
                                                + "idemkit.wait-timeout=2s\n"
                                                + "idemkit.heartbeat.interrupt=false\n"),
                                "META-INF/microprofile-config.properties"));
    }

    /**
     * @return {@code war} whose beans' {@code jdbc/business} is the server's data source of that
     *     name
     */
    static WebArchive withServerDataSources(WebArchive war) {
        return war.setWebXML(new StringAsset(webXml(businessRef("jdbc/business"))));
    }

    /**
     * @return {@code war} with the store's data source ({@link ItPostgres#withAppDataSource}) and a
     *     JTA one, {@value #BUSINESS}, on the same database, the beans' {@code jdbc/business}
     */
    static WebArchive withAppDataSources(WebArchive war, EmbeddedPostgres postgres) {
        String connection =
                "<class-name>org.postgresql.ds.PGSimpleDataSource</class-name>"
                        + "<server-name>127.0.0.1</server-name>"
                        + "<port-number>"
                        + postgres.getPort()
                        + "</port-number>"
                        + "<database-name>postgres</database-name>"
                        + "<user>postgres</user>"
                        + "<password>postgres</password>";
        return war.setWebXML(
                        new StringAsset(
                                webXml(
                                        businessRef(BUSINESS)
                                                + "<data-source><name>"
                                                + ItPostgres.APP_DATA_SOURCE
                                                + "</name>"
                                                + connection
                                                + "<transactional>false</transactional>"
                                                + "</data-source><data-source><name>"
                                                + BUSINESS
                                                + "</name>"
                                                + connection
                                                + "<transactional>true</transactional>"
                                                + "</data-source>")))
                .addAsLibrary(ItPostgres.driverJar(org.postgresql.Driver.class).toFile());
    }

    /**
     * @param jndiName the business data source's name in the runtime
     * @return the reference {@code jdbc/business}, bound to {@code jndiName}, that the beans look
     *     up as {@code java:comp/env/jdbc/business}: a lookup, since WildFly gives a CDI bean's
     *     {@code @Resource(name = …)} its default data source instead of the descriptor's
     */
    private static String businessRef(String jndiName) {
        return "<resource-ref><res-ref-name>jdbc/business</res-ref-name>"
                + "<res-type>javax.sql.DataSource</res-type>"
                + "<lookup-name>"
                + jndiName
                + "</lookup-name></resource-ref>";
    }

    private static String webXml(String body) {
        return "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">"
                + body
                + "</web-app>";
    }
}
