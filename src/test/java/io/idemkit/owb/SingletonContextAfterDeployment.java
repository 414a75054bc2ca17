package io.idemkit.owb;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Singleton;
import java.lang.annotation.Annotation;
import org.apache.webbeans.config.WebBeansContext;
import org.apache.webbeans.corespi.se.StandaloneContextsService;

/**
 * The contexts of OpenWebBeans SE, started in the order TomEE starts them: the {@code @Singleton}
 * context only once the deployment is done. TomEE's {@code CdiAppContextsService} (a {@code
 * WebContextsService}) creates that context in {@code init}, which TomEE calls after OpenWebBeans'
 * {@code BeansDeployer} has fired {@code AfterDeploymentValidation}; the application context is
 * active from the start. OpenWebBeans SE instead starts both before the deployment, and so would
 * hide what fails on TomEE: a {@code @Singleton} bean created by an extension during {@code
 * AfterDeploymentValidation} gets "WebBeans context with scope type annotation @Singleton does not
 * exist within current thread".
 *
 * <p>The SE life cycle starts the request context right after the deployment; the singleton context
 * starts there too.
 */
public final class SingletonContextAfterDeployment extends StandaloneContextsService {

    private boolean deployed;

    /**
     * @param context the container's context (OpenWebBeans creates its services reflectively)
     */
    public SingletonContextAfterDeployment(WebBeansContext context) {
        super(context);
    }

    @Override
    public void startContext(Class<? extends Annotation> scopeType, Object startParameter) {
        if (scopeType == Singleton.class && !deployed) {
            return;
        }
        if (scopeType == RequestScoped.class && !deployed) {
            deployed = true;
            super.startContext(Singleton.class, startParameter);
        }
        super.startContext(scopeType, startParameter);
    }
}
