package io.idemkit.it.harness;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A small HTTP client for the ITs: the JDK's client for ordinary requests, and a raw socket for
 * requests no well-behaved client sends (a header twice, raw bytes in a header).
 */
public final class HttpCalls {

    private final URI base;
    private final HttpClient client =
            HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10))
                    .build();

    /**
     * @param base the application's root, ending in {@code /}
     */
    public HttpCalls(URI base) {
        this.base = base;
    }

    /** A response as the client saw it. */
    public record Reply(int status, Map<String, List<String>> headers, byte[] body) {

        /**
         * @return the first value of a header, or {@code null}
         */
        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        /**
         * @return whether the response carries the header
         */
        public boolean has(String name) {
            return headers.containsKey(name.toLowerCase(Locale.ROOT));
        }

        /**
         * @return the body as UTF-8 text
         */
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /**
     * POSTs a JSON body.
     *
     * @param path relative to the base
     * @param headers name, value, name, value…
     */
    public Reply postJson(String path, String json, String... headers) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(base.resolve(path))
                        .timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request.build());
    }

    /**
     * POSTs a JSON body with an {@code Idempotency-Key} and the test tag the IT resources count
     * their calls by.
     *
     * @param path relative to the base
     * @param key the idempotency key
     * @param tag the {@code X-Test-Tag} value
     * @param headers more headers: name, value, name, value…
     */
    public Reply postKeyed(String path, String json, String key, String tag, String... headers) {
        String[] all = new String[headers.length + 4];
        all[0] = "Idempotency-Key";
        all[1] = key;
        all[2] = "X-Test-Tag";
        all[3] = tag;
        System.arraycopy(headers, 0, all, 4, headers.length);
        return postJson(path, json, all);
    }

    /** GETs a path. */
    public Reply get(String path, String... headers) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request.build());
    }

    /** DELETEs a path. */
    public Reply delete(String path, String... headers) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60)).DELETE();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request.build());
    }

    private Reply send(HttpRequest request) {
        try {
            HttpResponse<byte[]> response =
                    client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            Map<String, List<String>> headers = new LinkedHashMap<>();
            response.headers().map().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v));
            return new Reply(response.statusCode(), headers, response.body());
        } catch (IOException e) {
            throw new IllegalStateException("request failed: " + request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Sends a request written byte by byte: the header lines go out exactly as given, each ending
     * in CRLF, ISO-8859-1 encoded (so a string of chars below 256 stands for raw bytes).
     *
     * @param method the method
     * @param path relative to the base
     * @param headerLines whole header lines, without CRLF
     * @param body the body
     */
    public Reply raw(String method, String path, List<String> headerLines, byte[] body) {
        return rawTarget(method, base.resolve(path).getRawPath(), headerLines, body, body.length);
    }

    /**
     * Sends a request as raw bytes over a socket, with its request-target as written, so that a
     * query {@code java.net.URI} refuses ({@code ?f=%zz}) goes out as it is. When the body is
     * shorter than {@code declaredLength}, the socket's output is shut down after it: a client that
     * half-closes before it has sent what its {@code Content-Length} declared.
     *
     * @param requestTarget the path from the server's root, with its query if any
     */
    public Reply rawTarget(
            String method,
            String requestTarget,
            List<String> headerLines,
            byte[] body,
            long declaredLength) {
        StringBuilder head = new StringBuilder();
        head.append(method).append(' ').append(requestTarget).append(" HTTP/1.1\r\n");
        head.append("Host: ").append(base.getHost()).append(':').append(base.getPort());
        head.append("\r\nConnection: close\r\nContent-Length: ").append(declaredLength);
        head.append("\r\n");
        for (String line : headerLines) {
            head.append(line).append("\r\n");
        }
        head.append("\r\n");
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            if (body.length < declaredLength) {
                socket.shutdownOutput();
            }
            return parse(socket.getInputStream());
        } catch (IOException e) {
            throw new IllegalStateException("raw request failed: " + requestTarget, e);
        }
    }

    private static Reply parse(InputStream in) throws IOException {
        byte[] all = in.readAllBytes();
        String text = new String(all, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.computeIfAbsent(
                            lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            k -> new ArrayList<>())
                    .add(lines[i].substring(colon + 1).trim());
        }
        byte[] body = java.util.Arrays.copyOfRange(all, end + 4, all.length);
        if ("chunked"
                .equalsIgnoreCase(
                        String.join(",", headers.getOrDefault("transfer-encoding", List.of())))) {
            body = dechunk(body);
        }
        return new Reply(status, headers, body);
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < chunked.length) {
            int lineEnd = i;
            while (chunked[lineEnd] != '\r') {
                lineEnd++;
            }
            String sizeText = new String(chunked, i, lineEnd - i, StandardCharsets.ISO_8859_1);
            int size = Integer.parseInt(sizeText.split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            out.write(chunked, lineEnd + 2, size);
            i = lineEnd + 2 + size + 2;
        }
        return out.toByteArray();
    }
}
