package io.idemkit.openapi;

import io.idemkit.config.HttpKeyPolicy;
import io.idemkit.policy.ConfigLookup;
import io.idemkit.policy.HttpKeyResolution;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.Config;

/**
 * An {@code @Idempotent} endpoint as the OpenAPI document names it: its HTTP method, its path
 * template as segments, and the header its key comes in (none when an extractor takes the key from
 * the body or a token).
 *
 * @param httpMethod upper case
 * @param segments the resource's path template (class {@code @Path}, then method {@code @Path}),
 *     split at slashes, a template variable written {@code {name}} without its regular expression
 * @param keyHeader the key header; empty when a key extractor provides the key
 */
record OpenApiEndpoint(String httpMethod, List<String> segments, Optional<String> keyHeader) {

    /**
     * @return the endpoint of {@code resource}, with its key settings resolved as the HTTP surface
     *     resolves them; empty when it names no HTTP method (a sub-resource locator)
     * @throws IllegalArgumentException when its key settings are broken (the deployment reported it
     *     already)
     */
    static Optional<OpenApiEndpoint> of(
            ResourceMethod resource, HttpKeyPolicy defaults, Config config) {
        Method method = resource.method();
        Optional<String> httpMethod = httpMethod(resource.resourceClass(), method);
        if (httpMethod.isEmpty()) {
            return Optional.empty();
        }
        HttpKeyPolicy keys =
                HttpKeyResolution.forMethod(
                        ConfigLookup.of(config), resource.resourceClass(), method, defaults);
        List<String> segments = new ArrayList<>();
        Path onClass = resource.resourceClass().getAnnotation(Path.class);
        if (onClass != null) {
            segments.addAll(segments(onClass.value()));
        }
        inherited(resource.resourceClass(), method, m -> m.getAnnotation(Path.class))
                .ifPresent(p -> segments.addAll(segments(p.value())));
        return Optional.of(
                new OpenApiEndpoint(
                        httpMethod.get(),
                        List.copyOf(segments),
                        keys.keyExtractor().isPresent()
                                ? Optional.empty()
                                : Optional.of(keys.keyHeader())));
    }

    /**
     * @param document the segments of a path of the OpenAPI document, such as {@code
     *     /api/orders/{id}}
     * @return the part of it before this endpoint's template (the prefix the runtime put there,
     *     such as the application path), when the path ends with the template; empty when it does
     *     not. A template variable matches any variable: runtimes drop its regular expression, not
     *     its place.
     */
    Optional<List<String>> prefixIn(List<String> document) {
        int start = document.size() - segments.size();
        if (start < 0) {
            return Optional.empty();
        }
        for (int i = 0; i < segments.size(); i++) {
            if (!sameSegment(segments.get(i), document.get(start + i))) {
                return Optional.empty();
            }
        }
        return Optional.of(document.subList(0, start));
    }

    private static boolean sameSegment(String template, String document) {
        return template.equals(document) || (isVariable(template) && isVariable(document));
    }

    private static boolean isVariable(String segment) {
        return segment.length() >= 2 && segment.startsWith("{") && segment.endsWith("}");
    }

    /**
     * @return the segments of a path template, each variable written {@code {name}}
     */
    static List<String> segments(String template) {
        List<String> segments = new ArrayList<>();
        StringBuilder segment = new StringBuilder();
        int depth = 0;
        boolean inRegex = false;
        for (char c : template.toCharArray()) {
            if (depth > 0) {
                if (c == '{') {
                    depth++;
                } else if (c == '}') {
                    depth--;
                }
                if (depth == 0) {
                    segment.append('}');
                    inRegex = false;
                } else if (c == ':' && depth == 1) {
                    inRegex = true;
                } else if (!inRegex && !Character.isWhitespace(c)) {
                    segment.append(c);
                }
                continue;
            }
            if (c == '{') {
                depth = 1;
                segment.append('{');
            } else if (c == '/') {
                if (segment.length() > 0) {
                    segments.add(segment.toString());
                    segment.setLength(0);
                }
            } else {
                segment.append(c);
            }
        }
        if (segment.length() > 0) {
            segments.add(segment.toString());
        }
        return segments;
    }

    private static Optional<String> httpMethod(Class<?> type, Method method) {
        return inherited(
                type,
                method,
                m -> {
                    for (Annotation annotation : m.getAnnotations()) {
                        HttpMethod designator =
                                annotation.annotationType().getAnnotation(HttpMethod.class);
                        if (designator != null) {
                            return designator.value();
                        }
                    }
                    return null;
                });
    }

    /** JAX-RS annotation inheritance: the method's own, else the same method's up the types. */
    private static <A> Optional<A> inherited(
            Class<?> type, Method method, java.util.function.Function<Method, A> read) {
        A own = read.apply(method);
        if (own != null) {
            return Optional.of(own);
        }
        Deque<Class<?>> pending = new ArrayDeque<>(List.of(type));
        Set<Class<?>> seen = new HashSet<>();
        while (!pending.isEmpty()) {
            Class<?> t = pending.poll();
            if (t == null || t == Object.class || !seen.add(t)) {
                continue;
            }
            try {
                A found =
                        read.apply(
                                t.getDeclaredMethod(method.getName(), method.getParameterTypes()));
                if (found != null) {
                    return Optional.of(found);
                }
            } catch (NoSuchMethodException e) {
                // not declared here
            }
            if (t.getSuperclass() != null) {
                pending.add(t.getSuperclass());
            }
            pending.addAll(List.of(t.getInterfaces()));
        }
        return Optional.empty();
    }
}
