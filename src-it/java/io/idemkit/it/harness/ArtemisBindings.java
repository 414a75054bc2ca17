package io.idemkit.it.harness;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * What the message test application needs on WildFly's full profile, in the WAR's standard
 * descriptors (nothing of WildFly's own): its {@code web.xml} maps the names it looks up ({@code
 * jms/cf}, {@code jms/ordersQ}, {@code jms/quotesQ}, {@code jms/repliesQ}, Open Liberty's
 * server-defined names) to the broker's pooled connection factory {@code java:/JmsXA} and to queues
 * that {@code src-it/wildfly/it-server-full.cli} defines in the messaging subsystem; its {@code
 * ejb-jar.xml} binds the message-driven beans to those queues with the Jakarta Messaging activation
 * properties ({@code destinationLookup}, {@code destinationType}) and ActiveMQ Artemis' {@code
 * maxSession}, the counterpart of Liberty's activation specifications.
 */
public final class ArtemisBindings {

    private ArtemisBindings() {}

    /**
     * @param war the message test application
     * @param prefix the prefix of its queues' names: {@code ""} for {@code OrdersQ}, {@code
     *     QuotesQ} and {@code RepliesQ}, {@code "Limit"} for {@code LimitOrdersQ}, ...
     * @return {@code war}, bound to those queues
     */
    public static WebArchive on(WebArchive war, String prefix) {
        String orders = queue(prefix + "OrdersQ");
        String quotes = queue(prefix + "QuotesQ");
        String replies = queue(prefix + "RepliesQ");
        WebXml.add(
                war,
                "<resource-ref><res-ref-name>jms/cf</res-ref-name>"
                        + "<res-type>jakarta.jms.ConnectionFactory</res-type>"
                        + "<lookup-name>java:/JmsXA</lookup-name></resource-ref>"
                        + queueRef("jms/ordersQ", orders)
                        + queueRef("jms/quotesQ", quotes)
                        + queueRef("jms/repliesQ", replies));
        return war.addAsWebInfResource(
                new StringAsset(
                        "<ejb-jar xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"4.0\">"
                                + "<enterprise-beans>"
                                // As many concurrent deliveries as Liberty's maxConcurrency=8.
                                + messageDriven("OrdersBean", orders, "8")
                                + messageDriven("QuotesBean", quotes, null)
                                + "</enterprise-beans></ejb-jar>"),
                "ejb-jar.xml");
    }

    /** The JNDI name under which the messaging subsystem binds a queue of the CLI script. */
    public static String queue(String name) {
        return "java:/jms/queue/" + name;
    }

    private static String queueRef(String name, String lookup) {
        return "<resource-env-ref><resource-env-ref-name>"
                + name
                + "</resource-env-ref-name>"
                + "<resource-env-ref-type>jakarta.jms.Queue</resource-env-ref-type>"
                + "<lookup-name>"
                + lookup
                + "</lookup-name></resource-env-ref>";
    }

    /** {@code sessions} {@code null}: Artemis' default {@code maxSession}, 15. */
    private static String messageDriven(String bean, String queue, String sessions) {
        return "<message-driven><ejb-name>"
                + bean
                + "</ejb-name><activation-config>"
                + property("destinationLookup", queue)
                + property("destinationType", "jakarta.jms.Queue")
                + (sessions == null ? "" : property("maxSession", sessions))
                + "</activation-config></message-driven>";
    }

    private static String property(String name, String value) {
        return "<activation-config-property><activation-config-property-name>"
                + name
                + "</activation-config-property-name><activation-config-property-value>"
                + value
                + "</activation-config-property-value></activation-config-property>";
    }
}
