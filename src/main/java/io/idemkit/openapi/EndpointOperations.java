package io.idemkit.openapi;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;

/**
 * Finds the operations of the OpenAPI document that are {@code @Idempotent} endpoints (C6.12).
 *
 * <p>A runtime writes a resource method's path as its template after a prefix of its own: Open
 * Liberty and Payara Micro the application path ({@code /api/orders}), WildFly the context root and
 * then the application path ({@code /shop/api/orders}). The prefix is not known here, so it is
 * learnt from the document: every path of a JAX-RS application starts with its prefix, so of the
 * paths that end with an endpoint's template the one with the shortest prefix is the endpoint's,
 * and a longer one is another resource whose template ends the same way ({@code /api/admin/orders}
 * for {@code orders}). A path matches only under a prefix so learnt, exactly: a prefix found for
 * one endpoint under the prefix of another (its own operation missing from the document) is not
 * one. Stateless.
 */
final class EndpointOperations {

    /**
     * An operation of the document and the endpoint it is.
     *
     * @param pathItem the path item the operation is in
     * @param operation the operation
     * @param endpoint the endpoint
     */
    record Match(PathItem pathItem, Operation operation, OpenApiEndpoint endpoint) {}

    private EndpointOperations() {}

    /**
     * @return the operations of {@code openApi} that are one of {@code endpoints}, each once (the
     *     first endpoint it is wins), in the document's order
     */
    static List<Match> in(OpenAPI openApi, List<OpenApiEndpoint> endpoints) {
        if (openApi.getPaths() == null || openApi.getPaths().getPathItems() == null) {
            return List.of();
        }
        Map<String, PathItem> paths = openApi.getPaths().getPathItems();
        Set<List<String>> prefixes = prefixes(paths, endpoints);
        List<Match> matches = new ArrayList<>();
        for (Map.Entry<String, PathItem> path : paths.entrySet()) {
            List<String> document = OpenApiEndpoint.segments(path.getKey());
            Map<PathItem.HttpMethod, Operation> operations = path.getValue().getOperations();
            if (operations == null) {
                continue;
            }
            for (Map.Entry<PathItem.HttpMethod, Operation> operation : operations.entrySet()) {
                for (OpenApiEndpoint endpoint : endpoints) {
                    if (endpoint.httpMethod().equals(operation.getKey().name())
                            && endpoint.prefixIn(document).filter(prefixes::contains).isPresent()) {
                        matches.add(new Match(path.getValue(), operation.getValue(), endpoint));
                        break;
                    }
                }
            }
        }
        return matches;
    }

    /**
     * @return the prefixes the runtime wrote before the endpoints' templates: for each endpoint the
     *     shortest under which the document has its operation, less those under another one
     */
    private static Set<List<String>> prefixes(
            Map<String, PathItem> paths, List<OpenApiEndpoint> endpoints) {
        Set<List<String>> shortest = new HashSet<>();
        for (OpenApiEndpoint endpoint : endpoints) {
            List<List<String>> found = new ArrayList<>();
            for (Map.Entry<String, PathItem> path : paths.entrySet()) {
                Map<PathItem.HttpMethod, Operation> operations = path.getValue().getOperations();
                if (operations == null || !has(operations, endpoint.httpMethod())) {
                    continue;
                }
                endpoint.prefixIn(OpenApiEndpoint.segments(path.getKey())).ifPresent(found::add);
            }
            int least = found.stream().mapToInt(List::size).min().orElse(-1);
            found.stream().filter(p -> p.size() == least).forEach(shortest::add);
        }
        Set<List<String>> prefixes = new HashSet<>();
        for (List<String> prefix : shortest) {
            if (shortest.stream().noneMatch(other -> isProperPrefix(other, prefix))) {
                prefixes.add(prefix);
            }
        }
        return prefixes;
    }

    private static boolean has(Map<PathItem.HttpMethod, Operation> operations, String method) {
        return operations.keySet().stream().anyMatch(m -> m.name().equals(method));
    }

    private static boolean isProperPrefix(List<String> shorter, List<String> longer) {
        return shorter.size() < longer.size() && longer.subList(0, shorter.size()).equals(shorter);
    }
}
