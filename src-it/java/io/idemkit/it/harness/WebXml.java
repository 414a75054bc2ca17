package io.idemkit.it.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The {@code web.xml} of a test application, built from elements, so that what one helper needs (a
 * data source) and what another needs (authentication) end up in the one descriptor a WAR has. The
 * {@code web-app} schema takes its elements in any order.
 */
public final class WebXml {

    private static final String OPEN =
            "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">";
    private static final String CLOSE = "</web-app>";

    /**
     * BASIC authentication on {@code /api/secure/*}, for any role, against the runtime's user
     * registry (src-it/liberty, src-it/wildfly, src-it/payara: the users {@code tenant-A} and
     * {@code tenant-B}).
     */
    public static final String BASIC_ON_SECURE =
            "<security-constraint><web-resource-collection>"
                    + "<web-resource-name>secure</web-resource-name>"
                    + "<url-pattern>/api/secure/*</url-pattern></web-resource-collection>"
                    + "<auth-constraint><role-name>**</role-name></auth-constraint>"
                    + "</security-constraint>"
                    + "<login-config><auth-method>BASIC</auth-method>"
                    + "<realm-name>idemkit-it</realm-name></login-config>";

    private WebXml() {}

    /**
     * @param user a user of the runtime's registry, whose password is the name and {@code -secret}
     * @return the value of an {@code Authorization} header that authenticates as that user
     */
    public static String basicAuthorization(String user) {
        return "Basic "
                + Base64.getEncoder()
                        .encodeToString(
                                (user + ":" + user + "-secret").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param elements the {@code web-app} element's content
     * @return a whole descriptor
     */
    public static String document(String elements) {
        return OPEN + elements + CLOSE;
    }

    /**
     * @param war an application, with or without a {@code web.xml} that this class built
     * @param elements more of the {@code web-app} element's content
     * @return {@code war}, its {@code web.xml} holding what it held and {@code elements}
     */
    public static WebArchive add(WebArchive war, String elements) {
        Node existing = war.get("WEB-INF/web.xml");
        String held = existing == null ? "" : content(read(existing));
        return war.setWebXML(new StringAsset(document(held + elements)));
    }

    private static String content(String document) {
        if (!document.startsWith(OPEN) || !document.endsWith(CLOSE)) {
            throw new IllegalStateException("a web.xml that WebXml did not build: " + document);
        }
        return document.substring(OPEN.length(), document.length() - CLOSE.length());
    }

    private static String read(Node node) {
        try (InputStream in = node.getAsset().openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
