package io.idemkit.openapi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;

/**
 * Finds the operations of the OpenAPI document that are {@code @Idempotent} endpoints (C6.12).
 *
 * <p>A runtime writes a resource method's path as its template after a prefix of its own: Open
 * Liberty and Payara Micro the application path ({@code /api/orders}), WildFly the context root and
 * then the application path ({@code /shop/api/orders}). The prefix is not known here, so it is
 * learnt from the document. Every path of a JAX-RS application starts with its prefix, so of the
 * paths that end with an endpoint's template, the endpoint's is the one under the prefix the most
 * endpoints share, and of those the shortest: a longer one is another resource whose template ends
 * the same way ({@code /api/admin/orders} for {@code orders}), and one the other endpoints do not
 * share is not the application's (a hand-written {@code /orders} beside {@code /api/orders}). A
 * prefix that lies under another endpoint's is not one either (the endpoint's own operation is
 * missing from the document, and another resource's path ends like it). A path matches only under
 * its endpoint's prefix so learnt, exactly. Stateless.
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
        Map<OpenApiEndpoint, Set<List<String>>> prefixes = prefixes(paths, endpoints);
        List<Match> matches = new ArrayList<>();
        for (Map.Entry<String, PathItem> path : paths.entrySet()) {
            List<String> document = OpenApiEndpoint.segments(path.getKey());
            Map<PathItem.HttpMethod, Operation> operations = path.getValue().getOperations();
            if (operations == null) {
                continue;
            }
            for (Map.Entry<PathItem.HttpMethod, Operation> operation : operations.entrySet()) {
                for (OpenApiEndpoint endpoint : endpoints) {
                    Set<List<String>> own = prefixes.getOrDefault(endpoint, Set.of());
                    if (endpoint.httpMethod().equals(operation.getKey().name())
                            && endpoint.prefixIn(document).filter(own::contains).isPresent()) {
                        matches.add(new Match(path.getValue(), operation.getValue(), endpoint));
                        break;
                    }
                }
            }
        }
        return matches;
    }

    /**
     * @return for each endpoint, the prefix the runtime wrote before its template: of the prefixes
     *     under which the document has its operation, the one most endpoints share, then the
     *     shortest (all of them on a tie); none that lies under another endpoint's
     */
    private static Map<OpenApiEndpoint, Set<List<String>>> prefixes(
            Map<String, PathItem> paths, List<OpenApiEndpoint> endpoints) {
        Map<OpenApiEndpoint, List<List<String>>> candidates = new LinkedHashMap<>();
        Map<List<String>, Integer> support = new HashMap<>();
        for (OpenApiEndpoint endpoint : new LinkedHashSet<>(endpoints)) {
            List<List<String>> found = new ArrayList<>();
            for (Map.Entry<String, PathItem> path : paths.entrySet()) {
                Map<PathItem.HttpMethod, Operation> operations = path.getValue().getOperations();
                if (operations != null && has(operations, endpoint.httpMethod())) {
                    endpoint.prefixIn(OpenApiEndpoint.segments(path.getKey()))
                            .filter(prefix -> !found.contains(prefix))
                            .ifPresent(found::add);
                }
            }
            found.forEach(prefix -> support.merge(prefix, 1, Integer::sum));
            candidates.put(endpoint, found);
        }
        Comparator<List<String>> rank =
                Comparator.<List<String>>comparingInt(support::get)
                        .reversed()
                        .thenComparingInt(List::size);
        Map<OpenApiEndpoint, Set<List<String>>> picks = new HashMap<>();
        for (Map.Entry<OpenApiEndpoint, List<List<String>>> entry : candidates.entrySet()) {
            List<List<String>> found = entry.getValue();
            found.stream()
                    .min(rank)
                    .ifPresent(
                            best ->
                                    picks.put(
                                            entry.getKey(),
                                            found.stream()
                                                    .filter(p -> rank.compare(p, best) == 0)
                                                    .collect(Collectors.toSet())));
        }
        Set<List<String>> all = new HashSet<>();
        picks.values().forEach(all::addAll);
        picks.replaceAll(
                (endpoint, own) ->
                        own.stream()
                                .filter(p -> all.stream().noneMatch(q -> isProperPrefix(q, p)))
                                .collect(Collectors.toSet()));
        return picks;
    }

    private static boolean has(Map<PathItem.HttpMethod, Operation> operations, String method) {
        return operations.keySet().stream().anyMatch(m -> m.name().equals(method));
    }

    private static boolean isProperPrefix(List<String> shorter, List<String> longer) {
        return shorter.size() < longer.size() && longer.subList(0, shorter.size()).equals(shorter);
    }
}
