package io.idemkit.cdi;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.IdempotencyScopeProvider;
import io.idemkit.Idempotent;
import io.idemkit.admin.http.AdminSettings;
import io.idemkit.client.OperationKey;
import io.idemkit.config.ConfigReader;
import io.idemkit.config.ConfigValues;
import io.idemkit.config.HttpKeyPolicy;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.IdempotentPolicy;
import io.idemkit.config.InvalidConfigurationException;
import io.idemkit.config.PerMethodConfig;
import io.idemkit.config.ScopeSource;
import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.ScopeMode;
import io.idemkit.core.StorageErrorMode;
import io.idemkit.interceptor.ServerTransactionTimeout;
import io.idemkit.openapi.IdempotentResourceMethods;
import io.idemkit.openapi.ResourceMethod;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.StoreFactory;
import io.idemkit.store.StoreSelection;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedParameter;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.ProcessBean;
import jakarta.enterprise.inject.spi.WithAnnotations;
import jakarta.interceptor.Interceptor;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
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
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Validates everything that can be wrong before the first request: the {@code idemkit.*}
 * configuration, the {@link Idempotent} and {@link IdempotencyKey} annotations, and the scope
 * source. Every problem fails the deployment with its own message; none waits for a request.
 *
 * <p>The validated configuration is kept here for the producers.
 */
public class IdemkitExtension implements Extension {

    private static final System.Logger LOG = System.getLogger(IdemkitExtension.class.getName());

    /** Policy values used only to validate annotation members; never used for an operation. */
    private static final OperationPolicy VALIDATION_DEFAULTS =
            new OperationPolicy(
                    Duration.ofSeconds(30),
                    Duration.ofHours(24),
                    Duration.ofSeconds(10),
                    StorageErrorMode.FAIL_CLOSED,
                    CacheableStatuses.parse(CacheableStatuses.DEFAULT));

    private final List<String> definitionErrors = new ArrayList<>();
    private final List<LeaseChecks.AnnotatedLease> annotatedLeases = new ArrayList<>();
    private final List<MethodPolicies.MethodRef> idempotentMethods = new ArrayList<>();
    private final Map<MethodPolicies.MethodRef, OperationPolicy> methodPolicies =
            new ConcurrentHashMap<>();
    private volatile IdemkitConfig config;

    /**
     * Every bundled store's wing, one instance for this deployment, in the order auto tries them.
     */
    private final List<StoreFactory> storeFactories = loadStoreFactories();

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
            check(onType, null, type.getJavaClass().getName());
        }
        for (AnnotatedMethod<? super T> method : type.getMethods()) {
            Method javaMethod = method.getJavaMember();
            Idempotent onMethod = method.getAnnotation(Idempotent.class);
            String where = describe(javaMethod);
            String unreachable = unreachable(javaMethod.getModifiers());
            if (onMethod != null) {
                check(onMethod, onType, where);
                if (unreachable != null) {
                    definitionErrors.add(
                            "@Idempotent on "
                                    + where
                                    + " would have no effect: interceptors never apply to a "
                                    + unreachable
                                    + " method. Make it a non-static, non-private, non-final"
                                    + " method.");
                }
            }
            boolean intercepted = (onMethod != null || onType != null) && unreachable == null;
            if (intercepted) {
                idempotentMethods.add(
                        new MethodPolicies.MethodRef(type.getJavaClass(), javaMethod));
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
                boolean key = parameter.isAnnotationPresent(IdempotencyKey.class);
                boolean ignored = parameter.isAnnotationPresent(IdempotencyIgnored.class);
                String marker = key ? "@IdempotencyKey" : "@IdempotencyIgnored";
                if ((key || ignored) && onMethod == null && onType == null) {
                    definitionErrors.add(
                            marker
                                    + " on parameter "
                                    + parameter.getPosition()
                                    + " of "
                                    + where
                                    + " has no effect: neither the method nor its class is"
                                    + " @Idempotent.");
                } else if (key && ignored) {
                    definitionErrors.add(
                            "Parameter "
                                    + parameter.getPosition()
                                    + " of "
                                    + where
                                    + " is both @IdempotencyKey and @IdempotencyIgnored; a key"
                                    + " identifies the operation, so it cannot be ignored. Keep"
                                    + " one.");
                }
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
     * @return why no interceptor can reach a method with these modifiers ({@code private}, {@code
     *     static}, {@code final}); {@code null} when one can
     */
    private static String unreachable(int modifiers) {
        if (Modifier.isPrivate(modifiers)) {
            return "private";
        }
        if (Modifier.isStatic(modifiers)) {
            return "static";
        }
        return Modifier.isFinal(modifiers) ? "final" : null;
    }

    private void check(Idempotent annotation, Idempotent onType, String where) {
        try {
            OperationPolicy policy =
                    IdempotentPolicy.resolve(annotation, onType, VALIDATION_DEFAULTS);
            String lease =
                    !annotation.leaseTtl().isBlank()
                            ? annotation.leaseTtl()
                            : onType == null ? "" : onType.leaseTtl();
            if (!lease.isBlank()) {
                annotatedLeases.add(
                        new LeaseChecks.AnnotatedLease(lease, policy.leaseTtl(), where));
            }
        } catch (IllegalArgumentException e) {
            definitionErrors.add("Invalid @Idempotent(" + e.getMessage() + ") on " + where);
        }
        HttpKeyPolicy.members(annotation)
                .forEach(
                        (member, text) -> {
                            try {
                                HttpKeyPolicy.check(member, text);
                            } catch (IllegalArgumentException e) {
                                definitionErrors.add(
                                        "Invalid @Idempotent("
                                                + member
                                                + "=\""
                                                + text
                                                + "\": "
                                                + e.getMessage()
                                                + ") on "
                                                + where);
                            }
                        });
    }

    private static String describe(Method method) {
        return method.getDeclaringClass().getName() + "." + method.getName() + "()";
    }

    void reportDefinitionErrors(@Observes AfterBeanDiscovery event) {
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
     * Notes every enabled bean that is an {@link IdempotencyScopeProvider}, or an {@link
     * IdempotencyStore} of the application, in any archive.
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
        // The store's keys first, so that the one exception lists their problems with the rest.
        ConfigValues values = new ConfigValues(ConfigProvider.getConfig());
        ClassLoader library = IdemkitExtension.class.getClassLoader();
        List<StoreFactory> usable =
                storeFactories.stream()
                        .filter(f -> f.driver().map(d -> d.present(library)).orElse(true))
                        .toList();
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
        List<String> methodProblems = new ArrayList<>(PerMethodConfig.validate(mpConfig()));
        if (methodProblems.isEmpty()) {
            for (MethodPolicies.MethodRef ref : idempotentMethods) {
                try {
                    methodPolicies.put(
                            ref,
                            MethodPolicies.resolve(
                                    ref.beanClass(), ref.method(), read.defaults(), mpConfig()));
                } catch (IllegalArgumentException e) {
                    methodProblems.add(
                            "Invalid @Idempotent(" + e.getMessage() + ") on " + describe(ref));
                }
            }
        }
        if (methodProblems.isEmpty()) {
            methodProblems.addAll(
                    MessageChecks.problems(
                            read,
                            idempotentMethods,
                            methodPolicies,
                            mpConfig(),
                            ServerTransactionTimeout::read));
            methodProblems.addAll(
                    DerivedKeyChecks.problems(
                            read.derivedKeys(), idempotentMethods, w -> LOG.log(Level.WARNING, w)));
            methodProblems.addAll(Redactors.problems(beans, idempotentMethods, mpConfig()));
            methodProblems.addAll(
                    KeyExtractors.problems(
                            beans, idempotentMethods, mpConfig(), read.keyDefaults()));
            methodProblems.addAll(
                    CompletionChecks.problems(
                            idempotentMethods, methodPolicies, selection.factory(), beans));
        }
        Redactors.globalProblem(beans).ifPresent(methodProblems::add);
        methodProblems.forEach(p -> event.addDeploymentProblem(new DeploymentException(p)));
        if (methodProblems.isEmpty()) {
            LeaseChecks.shortLeases(read, methodPolicies).forEach(w -> LOG.log(Level.WARNING, w));
        }
        if (chosen.isPresent()) {
            StoreFactory store = chosen.get();
            store.leaseProblems(
                            LeaseChecks.effective(
                                    read,
                                    annotatedLeases,
                                    idempotentMethods,
                                    methodPolicies,
                                    mpConfig()))
                    .forEach(p -> event.addDeploymentProblem(new DeploymentException(p)));
            store.open(storeResources, read)
                    .forEach(p -> event.addDeploymentProblem(new DeploymentException(p)));
        }
        idempotentMethods.clear();
        storeSelection = selection;
        config = read;
    }

    private static org.eclipse.microprofile.config.Config mpConfig() {
        return ConfigProvider.getConfig();
    }

    private static String describe(MethodPolicies.MethodRef ref) {
        return ref.beanClass().getName()
                + "."
                + ref.method().getName()
                + "() (annotations and per-method configuration keys merged)";
    }

    /**
     * @param method a method as seen on a bean class
     * @return its policy, resolved at deployment, or {@code null} for a method CDI did not discover
     */
    OperationPolicy methodPolicy(MethodPolicies.MethodRef method) {
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

    private static List<StoreFactory> loadStoreFactories() {
        List<StoreFactory> found = new ArrayList<>();
        ServiceLoader.load(StoreFactory.class, IdemkitExtension.class.getClassLoader())
                .forEach(found::add);
        return List.copyOf(found);
    }

    private static <T> T validated(T value) {
        if (value == null) {
            throw new IllegalStateException("idemkit configuration is read at deployment");
        }
        return value;
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

    /** Checks where {@code @OperationKey} stands (C14.1), as a definition error. */
    <T> void checkOperationKeys(
            @Observes @WithAnnotations(OperationKey.class) ProcessAnnotatedType<T> event) {
        definitionErrors.addAll(ClientChecks.annotationProblems(event.getAnnotatedType()));
    }

    /** Validates {@code idemkit.client.*} at deployment, like every other key (C14). */
    void validateClient(@Observes AfterDeploymentValidation event) {
        ClientChecks.configProblems(ConfigProvider.getConfig())
                .forEach(p -> event.addDeploymentProblem(new DeploymentException(p)));
    }

    /** Validates {@code idemkit.admin.*} at deployment, like every other key. */
    void validateAdmin(@Observes AfterDeploymentValidation event) {
        AdminSettings.problems(ConfigProvider.getConfig())
                .forEach(p -> event.addDeploymentProblem(new DeploymentException(p)));
    }
}
