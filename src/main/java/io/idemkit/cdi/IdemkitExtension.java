package io.idemkit.cdi;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.IdempotencyScopeProvider;
import io.idemkit.Idempotent;
import io.idemkit.client.IdempotentOperation;
import io.idemkit.client.OperationKey;
import io.idemkit.client.StepKey;
import io.idemkit.config.ConfigReader;
import io.idemkit.config.ConfigSection;
import io.idemkit.config.ConfigValues;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.InvalidConfigurationException;
import io.idemkit.config.ScopeSource;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.ScopeMode;
import io.idemkit.method.DerivedKeys;
import io.idemkit.method.MessageTransport;
import io.idemkit.method.MessageTransports;
import io.idemkit.openapi.IdempotentResourceMethods;
import io.idemkit.openapi.ResourceMethod;
import io.idemkit.policy.AnnotationChecks;
import io.idemkit.policy.ConfigLookup;
import io.idemkit.policy.LeaseChecks;
import io.idemkit.policy.MethodPolicyChecks;
import io.idemkit.policy.MethodRef;
import io.idemkit.policy.MethodSite;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.StoreFactory;
import io.idemkit.store.StoreSelection;
import io.idemkit.transaction.ServerTransactionTimeout;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.AmbiguousResolutionException;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedParameter;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeShutdown;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.ProcessBean;
import jakarta.enterprise.inject.spi.WithAnnotations;
import jakarta.interceptor.Interceptor;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Validates everything that can be wrong before the first request: the {@code idemkit.*}
 * configuration, the {@link Idempotent} and {@link IdempotencyKey} annotations, and the scope
 * source. Every problem fails the deployment with its own message; none waits for a request. The
 * container's events only: the rules of a method's policy are {@link io.idemkit.policy}'s ({@link
 * AnnotationChecks} as each type is discovered, {@link MethodPolicyChecks} at validation), which
 * this class hands the methods and the container's answers.
 *
 * <p>The validated configuration is kept here for the producers.
 */
public class IdemkitExtension implements Extension {

    private static final System.Logger LOG = System.getLogger(IdemkitExtension.class.getName());

    private final List<String> definitionErrors = new ArrayList<>();
    private final AnnotationChecks annotationChecks = new AnnotationChecks(definitionErrors::add);
    private final List<MethodRef> idempotentMethods = new ArrayList<>();
    private final IncomingMethodChecks incomingChecks = new IncomingMethodChecks();
    private final ClientChecks.FaultTolerancePlacement ftPlacement =
            new ClientChecks.FaultTolerancePlacement();
    private final Map<MethodRef, OperationPolicy> methodPolicies = new ConcurrentHashMap<>();
    private volatile IdemkitConfig config;

    /**
     * Every bundled store's wing, one instance for this deployment, in the order auto tries them.
     */
    private final List<StoreFactory> storeFactories = load(StoreFactory.class);

    /**
     * The wings' own configuration beyond the stores' (the HTTP surface's, the client half's and
     * the admin API's keys), read in the same reading.
     */
    private final List<ConfigSection> configSections = load(ConfigSection.class);

    /** What the container has for the stores: the application's beans of the types they name. */
    private final ContainerResources storeResources =
            new ContainerResources(
                    storeFactories.stream()
                            .flatMap(f -> f.beanTypes().stream())
                            .collect(Collectors.toUnmodifiableSet()));

    /** The {@code @Idempotent} JAX-RS resource methods, for the optional OpenAPI filter. */
    private final Set<ResourceMethod> idempotentResources = ConcurrentHashMap.newKeySet();

    /**
     * The application's {@link IdempotencyScopeProvider} beans, as the container discovered them.
     * Not asked of the library's {@code BeanManager}: on Payara each jar of {@code WEB-INF/lib} is
     * a bean archive of its own, which does not see the beans of {@code WEB-INF/classes}, so such a
     * lookup found no provider there, and the application's tenants shared one key space.
     */
    private final Set<Bean<?>> scopeProviders = ConcurrentHashMap.newKeySet();

    private volatile StoreSelection storeSelection;
    private volatile IdempotencyStore startedStore;

    <T> void checkAnnotations(
            @Observes
                    @WithAnnotations({
                        Idempotent.class,
                        IdempotencyKey.class,
                        IdempotencyIgnored.class
                    })
                    ProcessAnnotatedType<T> event) {
        AnnotatedType<T> type = event.getAnnotatedType();
        if (type.isAnnotationPresent(Interceptor.class)) {
            // @Idempotent there is the interceptor's binding, not an operation.
            return;
        }
        Idempotent onType = type.getAnnotation(Idempotent.class);
        Set<Method> resourceMethods = new HashSet<>();
        if (onType != null) {
            annotationChecks.type(onType, type.getJavaClass().getName());
        }
        for (AnnotatedMethod<? super T> method : type.getMethods()) {
            Method javaMethod = method.getJavaMember();
            Idempotent onMethod = method.getAnnotation(Idempotent.class);
            boolean reachable = annotationChecks.method(onMethod, onType, javaMethod);
            if ((onMethod != null || onType != null) && reachable) {
                idempotentMethods.add(new MethodRef(type.getJavaClass(), javaMethod));
                boolean resource =
                        JaxRsResourceMethods.isResourceMethod(type.getJavaClass(), javaMethod);
                if (resource) {
                    idempotentResources.add(new ResourceMethod(type.getJavaClass(), javaMethod));
                }
                if (onMethod != null && resource) {
                    resourceMethods.add(javaMethod);
                }
            }
            for (AnnotatedParameter<? super T> parameter : method.getParameters()) {
                annotationChecks.parameter(
                        parameter.getPosition(),
                        parameter.isAnnotationPresent(IdempotencyKey.class),
                        parameter.isAnnotationPresent(IdempotencyIgnored.class),
                        onMethod != null || onType != null,
                        javaMethod);
            }
        }
        if (onType == null && !resourceMethods.isEmpty()) {
            // The filter pair handles these (C7.4), reading the annotation by reflection; without
            // the interceptor binding in CDI's view, no interceptor chain runs on every request
            // only to pass through.
            event.configureAnnotatedType()
                    .filterMethods(m -> resourceMethods.contains(m.getJavaMember()))
                    .forEach(m -> m.remove(a -> a.annotationType() == Idempotent.class));
        }
    }

    /**
     * Reports the problems found as types were discovered, and those of the {@code @Incoming}
     * methods, which must come before any channel connects ({@link IncomingMethodChecks}).
     */
    void reportDefinitionErrors(@Observes AfterBeanDiscovery event) {
        definitionErrors.addAll(
                incomingChecks.problems(
                        idempotentMethods.stream().map(IdemkitExtension::site).toList(),
                        this::configValues));
        for (String error : definitionErrors) {
            event.addDefinitionError(new DefinitionException(error));
        }
        definitionErrors.clear();
    }

    /**
     * Reads and validates the configuration. It runs before the default-priority observers of other
     * extensions ({@code LIBRARY_BEFORE}, not the default {@code APPLICATION + 500}): a health
     * runtime such as TomEE's creates and may call the readiness check during this same event, and
     * the check's store needs the configuration. The container's order among observers of equal
     * priority is unspecified (OpenWebBeans notified TomEE's kind of extension first).
     */
    /**
     * The application's own {@link IdempotencyStore} beans: any but {@link StoreProducer}'s. Noted
     * as the container discovers them, for the reason {@link #scopeProviders} is.
     */
    private final Set<Bean<?>> applicationStores = ConcurrentHashMap.newKeySet();

    /**
     * Notes every enabled bean that is an {@link IdempotencyScopeProvider}, an {@link
     * IdempotencyStore} of the application, or a record key extractor, in any archive.
     */
    void collectApplicationBeans(@Observes ProcessBean<?> event) {
        Bean<?> bean = event.getBean();
        if (bean.getTypes().contains(IdempotencyScopeProvider.class)) {
            scopeProviders.add(bean);
        }
        if (bean.getTypes().contains(IdempotencyStore.class)
                && bean.getBeanClass() != StoreProducer.class) {
            applicationStores.add(bean);
        }
        if (bean.getQualifiers().contains(Default.Literal.INSTANCE)) {
            storeResources.note(bean);
        }
        incomingChecks.note(bean);
    }

    /**
     * @return the application's one {@link IdempotencyScopeProvider} bean, if it has one (the
     *     deployment fails when it has more)
     */
    Optional<Bean<?>> scopeProvider() {
        return scopeProviders.size() == 1
                ? Optional.of(scopeProviders.iterator().next())
                : Optional.empty();
    }

    void validateDeployment(
            @Observes @Priority(Interceptor.Priority.LIBRARY_BEFORE)
                    AfterDeploymentValidation event,
            BeanManager beans) {
        // The wings' keys first, so that the one exception lists their problems with the rest.
        ConfigValues values = configValues();
        configSections.forEach(section -> section.read(values));
        ClassLoader library = IdemkitExtension.class.getClassLoader();
        List<StoreFactory> usable =
                storeFactories.stream()
                        .filter(f -> f.driver().map(d -> d.present(library)).orElse(true))
                        .toList();
        StoreSelection.checkName(values, storeFactories);
        usable.forEach(f -> f.read(values));
        IdemkitConfig read;
        try {
            read = ConfigReader.read(values);
        } catch (InvalidConfigurationException e) {
            e.problems().forEach(p -> event.addDeploymentProblem(new DeploymentException(p)));
            return;
        }
        Set<Bean<?>> providers = Set.copyOf(scopeProviders);
        if (providers.size() > 1) {
            event.addDeploymentProblem(
                    new DeploymentException(
                            "More than one IdempotencyScopeProvider bean: "
                                    + providers.stream()
                                            .map(b -> b.getBeanClass().getName())
                                            .sorted()
                                            .collect(Collectors.joining(", "))
                                    + ". Keep exactly one."));
        }
        if (read.scopeSource() == ScopeSource.PRINCIPAL && !providers.isEmpty()) {
            event.addDeploymentProblem(
                    new DeploymentException(
                            "idemkit.scope-source=principal, but the application also has an"
                                    + " IdempotencyScopeProvider bean. Choose one: remove the"
                                    + " bean or set idemkit.scope-source=auto."));
        }
        if (read.scopeMode() == ScopeMode.STRICT
                && read.scopeSource() == ScopeSource.AUTO
                && providers.isEmpty()) {
            event.addDeploymentProblem(
                    new DeploymentException(
                            "idemkit.scope-mode=strict requires a scope source: provide an"
                                    + " IdempotencyScopeProvider bean or set"
                                    + " idemkit.scope-source=principal."));
        }
        storeResources.use(beans);
        StoreSelection selection =
                StoreSelection.choose(
                        read.store(), storeFactories, usable::contains, values, storeResources);
        selection.problem().ifPresent(p -> event.addDeploymentProblem(new DeploymentException(p)));
        // The chosen store's own checks, when it can be had and the producer makes it.
        Optional<StoreFactory> chosen =
                selection.problem().isEmpty() && producerMakesTheStore()
                        ? Optional.of(selection.factory())
                        : Optional.empty();
        ConfigLookup lookup = ConfigLookup.current();
        List<MethodSite> sites = idempotentMethods.stream().map(IdemkitExtension::site).toList();
        MethodPolicyChecks.Outcome checked =
                MethodPolicyChecks.check(
                        read,
                        sites,
                        lookup,
                        (context, name, spi) -> NamedBeans.check(beans, context, name, spi),
                        ServerTransactionTimeout::read,
                        () -> inTransactionStoreProblem(selection.factory(), beans));
        methodPolicies.putAll(checked.policies());
        checked.warnings().forEach(w -> LOG.log(Level.WARNING, w));
        List<String> methodProblems = new ArrayList<>(checked.problems());
        Redactors.globalProblem(beans).ifPresent(methodProblems::add);
        methodProblems.forEach(p -> event.addDeploymentProblem(new DeploymentException(p)));
        if (methodProblems.isEmpty()) {
            LeaseChecks.shortLeases(read, methodPolicies).forEach(w -> LOG.log(Level.WARNING, w));
        }
        if (chosen.isPresent()) {
            StoreFactory store = chosen.get();
            store.leaseProblems(
                            LeaseChecks.effective(
                                    read, annotationChecks.leases(), sites, methodPolicies, lookup))
                    .forEach(p -> event.addDeploymentProblem(new DeploymentException(p)));
            store.open(storeResources, read)
                    .forEach(p -> event.addDeploymentProblem(new DeploymentException(p)));
        }
        idempotentMethods.clear();
        storeSelection = selection;
        config = read;
    }

    /** The application's configuration, with every key the library's wings know. */
    private ConfigValues configValues() {
        return new ConfigValues(
                ConfigProvider.getConfig(),
                Stream.concat(configSections.stream(), storeFactories.stream())
                        .flatMap(section -> section.keys().stream())
                        .collect(Collectors.toUnmodifiableSet()));
    }

    /** What the checks need to know of a method, by the surfaces' own rules. */
    private static MethodSite site(MethodRef ref) {
        boolean resource = JaxRsResourceMethods.isResourceMethod(ref.beanClass(), ref.method());
        String transport =
                MessageTransports.installed()
                        .receiving(ref.beanClass(), ref.method())
                        .map(MessageTransport::name)
                        .orElse(null);
        boolean receivesMessages = transport != null;
        boolean derived = DerivedKeys.isDerived(ref.method());
        return new MethodSite(
                ref,
                resource,
                transport,
                derived,
                derived && !resource && !receivesMessages
                        ? DerivedKeys.volatileLooking(ref.method())
                        : List.of());
    }

    /**
     * @return why the store cannot complete records inside a transaction (C13), as the chosen
     *     bundled store says (only the JDBC store with a transaction data source can); empty for an
     *     application's own store, which says so at its first use
     */
    private static Optional<String> inTransactionStoreProblem(
            StoreFactory chosen, BeanManager beans) {
        try {
            Bean<?> store = beans.resolve(beans.getBeans(IdempotencyStore.class));
            if (store == null || store.getBeanClass() != StoreProducer.class) {
                return Optional.empty();
            }
        } catch (AmbiguousResolutionException e) {
            return Optional.empty(); // reported where the store is injected
        }
        return chosen.inTransactionProblem();
    }

    /**
     * @param method a method as seen on a bean class
     * @return its policy, resolved at deployment, or {@code null} for a method CDI did not discover
     */
    OperationPolicy methodPolicy(MethodRef method) {
        return methodPolicies.get(method);
    }

    /**
     * Whether {@link StoreProducer} makes the store: the application has no store bean of its own
     * (an alternative, which wins, or another bean, which makes the injection ambiguous and is
     * reported there). Not asked of the library's {@code BeanManager}: on Payara it did not resolve
     * the producer's own bean, so the JDBC store was never opened and the deployment failed.
     */
    private boolean producerMakesTheStore() {
        return applicationStores.isEmpty();
    }

    /**
     * @return the bundled store the producer makes, chosen at deployment
     * @throws IllegalStateException before deployment validation has run
     */
    StoreSelection storeSelection() {
        return validated(storeSelection);
    }

    /**
     * @return what the container has for the stores
     */
    ContainerResources storeResources() {
        return storeResources;
    }

    /** One instance of each wing the library's service files list, for this deployment. */
    private static <T> List<T> load(Class<T> seam) {
        List<T> found = new ArrayList<>();
        ServiceLoader.load(seam, IdemkitExtension.class.getClassLoader()).forEach(found::add);
        return List.copyOf(found);
    }

    private static <T> T validated(T value) {
        if (value == null) {
            throw new IllegalStateException("idemkit configuration is read at deployment");
        }
        return value;
    }

    /**
     * @param type a section's class, as the service file lists it
     * @return this deployment's instance of it, read at deployment validation
     * @throws IllegalStateException when the library has no such section
     */
    <T extends ConfigSection> T section(Class<T> type) {
        return configSections.stream()
                .filter(type::isInstance)
                .map(type::cast)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no section " + type.getName()));
    }

    /**
     * @return the configuration validated at deployment
     * @throws IllegalStateException before deployment validation has run
     */
    public IdemkitConfig config() {
        return validated(config);
    }

    /**
     * Registers the optional integrations (Health, OpenTelemetry, the servlet request end) whose
     * APIs are present, as synthetic beans and observers.
     */
    void registerOptionalIntegrations(@Observes AfterBeanDiscovery event, BeanManager beans) {
        OptionalIntegrations.register(event, beans, this::startedStore);
    }

    /**
     * Called once by {@link IdemkitStartup}, a bean of the library's own archive, which sees the
     * store on every runtime; the synthetic beans get it from here.
     */
    void storeStarted(IdempotencyStore store) {
        startedStore = Objects.requireNonNull(store, "store");
    }

    private Optional<IdempotencyStore> startedStore() {
        return Optional.ofNullable(startedStore);
    }

    /**
     * @return the {@code @Idempotent} JAX-RS resource methods of the application's bean archives
     */
    IdempotentResourceMethods idempotentResources() {
        return new IdempotentResourceMethods(List.copyOf(idempotentResources));
    }

    /**
     * Checks where {@code @OperationKey} and {@code @StepKey} stand (C14.1), as definition errors.
     */
    <T> void checkOperationKeys(
            @Observes
                    @WithAnnotations({OperationKey.class, StepKey.class, IdempotentOperation.class})
                    ProcessAnnotatedType<T> event) {
        definitionErrors.addAll(ClientChecks.annotationProblems(event.getAnnotatedType()));
        ftPlacement.note(event.getAnnotatedType());
    }

    /**
     * Validates Fault Tolerance's place at deployment (C14.3); {@code idemkit.client.*} is the
     * client's section's, read with the rest of the configuration.
     */
    void validateClient(@Observes AfterDeploymentValidation event) {
        ftPlacement
                .check(ConfigProvider.getConfig())
                .ifPresent(p -> event.addDeploymentProblem(new DeploymentException(p)));
    }

    /** Lets the JDK's record support forget the application's classes (C15.1). */
    void releaseJdkCaches(@Observes BeforeShutdown event) {
        RecordEqualsCache.release();
    }
}
