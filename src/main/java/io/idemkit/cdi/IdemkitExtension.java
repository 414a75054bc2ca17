package io.idemkit.cdi;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import io.idemkit.IdempotencyKey;
import io.idemkit.IdempotencyScopeProvider;
import io.idemkit.Idempotent;
import io.idemkit.admin.AdminSettings;
import io.idemkit.config.ConfigReader;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.IdempotentPolicy;
import io.idemkit.config.InvalidConfigurationException;
import io.idemkit.config.ScopeSource;
import io.idemkit.config.StoreKind;
import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.ScopeMode;
import io.idemkit.core.StorageErrorMode;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedParameter;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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

    /** Policy values used only to validate annotation members; never used for an operation. */
    private static final OperationPolicy VALIDATION_DEFAULTS =
            new OperationPolicy(
                    Duration.ofSeconds(30),
                    Duration.ofHours(24),
                    Duration.ofSeconds(10),
                    StorageErrorMode.FAIL_CLOSED,
                    CacheableStatuses.parse(CacheableStatuses.DEFAULT));

    private final List<String> definitionErrors = new ArrayList<>();
    private volatile IdemkitConfig config;

    <T> void checkAnnotations(
            @Observes @WithAnnotations({Idempotent.class, IdempotencyKey.class})
                    ProcessAnnotatedType<T> event) {
        AnnotatedType<T> type = event.getAnnotatedType();
        Idempotent onType = type.getAnnotation(Idempotent.class);
        if (onType != null) {
            check(onType, null, type.getJavaClass().getName());
        }
        for (AnnotatedMethod<? super T> method : type.getMethods()) {
            Method javaMethod = method.getJavaMember();
            Idempotent onMethod = method.getAnnotation(Idempotent.class);
            String where = describe(javaMethod);
            if (onMethod != null) {
                check(onMethod, onType, where);
                int modifiers = javaMethod.getModifiers();
                if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers)) {
                    definitionErrors.add(
                            "@Idempotent on "
                                    + where
                                    + " would have no effect: interceptors never apply to a "
                                    + (Modifier.isPrivate(modifiers) ? "private" : "static")
                                    + " method. Make it a non-static, non-private method.");
                }
            }
            if (onMethod == null && onType == null) {
                for (AnnotatedParameter<? super T> parameter : method.getParameters()) {
                    if (parameter.isAnnotationPresent(IdempotencyKey.class)) {
                        definitionErrors.add(
                                "@IdempotencyKey on parameter "
                                        + parameter.getPosition()
                                        + " of "
                                        + where
                                        + " has no effect: neither the method nor its class is"
                                        + " @Idempotent.");
                    }
                }
            }
        }
    }

    private void check(Idempotent annotation, Idempotent onType, String where) {
        try {
            IdempotentPolicy.resolve(annotation, onType, VALIDATION_DEFAULTS);
        } catch (IllegalArgumentException e) {
            definitionErrors.add("Invalid @Idempotent(" + e.getMessage() + ") on " + where);
        }
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

    void validateDeployment(@Observes AfterDeploymentValidation event, BeanManager beans) {
        IdemkitConfig read;
        try {
            read = ConfigReader.read(ConfigProvider.getConfig());
        } catch (InvalidConfigurationException e) {
            e.problems().forEach(p -> event.addDeploymentProblem(new DeploymentException(p)));
            return;
        }
        Set<Bean<?>> providers =
                beans.getBeans(IdempotencyScopeProvider.class, Any.Literal.INSTANCE);
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
        if (read.store() == StoreKind.MONGO
                && read.mongo().uri() == null
                && beans.getBeans(MongoDatabase.class).isEmpty()
                && beans.getBeans(MongoClient.class).isEmpty()) {
            event.addDeploymentProblem(
                    new DeploymentException(
                            "idemkit.store=mongo needs idemkit.mongo.uri, or a MongoClient or"
                                    + " MongoDatabase bean; none is there."));
        }
        config = read;
    }

    /**
     * @return the configuration validated at deployment
     * @throws IllegalStateException before deployment validation has run
     */
    public IdemkitConfig config() {
        IdemkitConfig current = config;
        if (current == null) {
            throw new IllegalStateException("idemkit configuration is read at deployment");
        }
        return current;
    }

    /** Registers the MicroProfile Health and OpenTelemetry beans, when their APIs are present. */
    void registerOptionalIntegrations(@Observes BeforeBeanDiscovery event) {
        OptionalIntegrations.register(event);
    }

    /** Validates {@code idemkit.admin.*} at deployment, like every other key. */
    void validateAdmin(@Observes AfterDeploymentValidation event) {
        AdminSettings.problems(ConfigProvider.getConfig())
                .forEach(p -> event.addDeploymentProblem(new DeploymentException(p)));
    }
}
