package io.idemkit.it.harness;

import java.io.IOException;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The runtime the failsafe execution runs the ITs on, and everything the ITs know about it: each
 * difference between the runtimes that a test depends on is a method here, named for what the
 * difference is, and answered in the one place per runtime below. A test asks {@code
 * ItRuntime.current()} for the fact it needs; it never asks which runtime it is on. Which runtimes
 * a test runs on at all is {@link OnRuntimes}.
 *
 * <p>The execution names its runtime in the system property {@value #PROPERTY} (the pom sets it per
 * failsafe execution: {@code liberty}, {@code wildfly}, {@code payara}); without it, as in an IDE,
 * it is Open Liberty, arquillian.xml's default container.
 */
public enum ItRuntime {
    LIBERTY("liberty", "Open Liberty") {
        @Override
        public boolean definesResourcesInServerConfig() {
            return true;
        }

        @Override
        OwnServer ownServer(String name, WebArchive war) throws IOException {
            return new LibertyServer(name, war);
        }
    },

    WILDFLY("wildfly", "WildFly") {
        @Override
        public boolean endsRequestAfterSendingResponse() {
            return true;
        }

        @Override
        public boolean idleRequestThreadMayHoldUndeployedApplication() {
            return true;
        }

        @Override
        public String telemetryLoggingExportConfig() {
            return "otel.sdk.disabled=false\notel.metrics.exporter=logging\n"
                    + "otel.traces.exporter=logging\notel.logs.exporter=none\n"
                    + "otel.metric.export.interval=1000\notel.bsp.schedule.delay=200\n";
        }

        @Override
        OwnServer ownServer(String name, WebArchive war) throws IOException {
            return new WildFlyServer(name, war);
        }
    },

    PAYARA("payara", "Payara Micro") {
        @Override
        public boolean writesHealthDataAsStrings() {
            return true;
        }

        @Override
        OwnServer ownServer(String name, WebArchive war) throws IOException {
            return new PayaraServer(name, war);
        }
    };

    /** The system property in which the pom names each failsafe execution's runtime. */
    public static final String PROPERTY = "idemkit.it.runtime";

    private static final ItRuntime CURRENT = of(System.getProperty(PROPERTY));

    private final String value;
    private final String title;

    ItRuntime(String value, String title) {
        this.value = value;
        this.title = title;
    }

    /**
     * @return the runtime of this execution, read once from {@value #PROPERTY}
     */
    public static ItRuntime current() {
        return CURRENT;
    }

    /**
     * @param value the property's value, or {@code null} when it is not set
     * @return the runtime it names; {@link #LIBERTY} for {@code null}
     * @throws IllegalStateException for a value that names no runtime, rather than run the ITs as
     *     if on another
     */
    static ItRuntime of(String value) {
        if (value == null) {
            return LIBERTY;
        }
        return Arrays.stream(values())
                .filter(runtime -> runtime.value.equals(value))
                .findFirst()
                .orElseThrow(
                        () ->
                                new IllegalStateException(
                                        "Invalid "
                                                + PROPERTY
                                                + "="
                                                + value
                                                + ": must be one of "
                                                + Arrays.stream(values())
                                                        .map(runtime -> runtime.value)
                                                        .collect(Collectors.joining(", "))));
    }

    /**
     * @return the runtime's name as its makers write it, for skip reasons and messages
     */
    public String title() {
        return title;
    }

    /**
     * Where the ITs' data sources and messaging resources are defined. On Open Liberty they are the
     * server's (its {@code server.xml}, which {@link LibertyServer} and {@link SharedLiberty}
     * write): an application-defined data source there needs the {@code jdbc-4.3} feature, which
     * the shared IT server does not enable. On WildFly and Payara Micro the application defines its
     * data sources in its {@code web.xml} ({@link ItPostgres#withAppDataSource}) and uses the
     * broker its server's profile brings.
     *
     * @return {@code true} where a test writes its resources into the server's configuration,
     *     {@code false} where it puts them in its application
     */
    public boolean definesResourcesInServerConfig() {
        return false;
    }

    /**
     * Whether the runtime ends a request, where idemkit releases the claim of a request that ended
     * in an unmapped exception (C6.7), only after it has sent that request's 500: Undertow does
     * (WildFly), so a retry sent the instant the 500 arrives can still meet the claim (423) for
     * that instant. On Liberty and Payara Micro a retry sent at once has never met it.
     */
    public boolean endsRequestAfterSendingResponse() {
        return false;
    }

    /**
     * Whether an idle thread of the runtime's request pool may keep an undeployed application's
     * class loader reachable: on WildFly, in three runs out of five, an idle {@code default task}
     * thread still referred to the last Undertow exchange it ran for the application (a heap dump
     * showed that path, none through idemkit or the driver), so a check that the loader was
     * collected cannot be asserted there for every application.
     */
    public boolean idleRequestThreadMayHoldUndeployedApplication() {
        return false;
    }

    /**
     * Whether the runtime's MicroProfile Health writes a check's data values as JSON strings:
     * Payara Micro 6 does ({@code HealthCheckService} calls {@code toString()} on each); Liberty
     * and SmallRye Health keep numbers as numbers.
     */
    public boolean writesHealthDataAsStrings() {
        return false;
    }

    /**
     * The MicroProfile Config an application adds so that the runtime exports its spans and metrics
     * with the OpenTelemetry logging exporters into the server's log, where the telemetry test
     * reads them. WildFly gives each application an OpenTelemetry SDK of its own, configured by the
     * application's MicroProfile Config (the other applications' SDKs stay off); Liberty's ops
     * server gets the same settings from arquillian.xml; on Payara Micro no execution reads them.
     *
     * @return properties lines, each ending in a newline, or {@code ""} where the application adds
     *     none
     */
    public String telemetryLoggingExportConfig() {
        return "";
    }

    /**
     * @return a server of this runtime of the test's own, not started ({@link OwnServer#of})
     */
    abstract OwnServer ownServer(String name, WebArchive war) throws IOException;
}
