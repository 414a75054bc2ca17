package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.StoredHeader;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The headers kept with a stored result (C6.3): the allow-list, minus the deny-list. */
class StoredHeadersTest {

    private final StoredHeaders headers =
            new StoredHeaders(
                    Set.of("content-type", "location", "set-cookie", "x-request-cost"),
                    Set.of("set-cookie", "authorization"));

    @Test
    void namesMatchInAnyCase_andAreKeptAsTheResourceWroteThem() {
        MultivaluedMap<String, Object> response = new MultivaluedHashMap<>();
        response.add("Content-Type", "application/json");
        response.add("LOCATION", "/payments/7");
        response.add("x-Request-Cost", "3");

        assertThat(headers.select(response))
                .containsExactlyInAnyOrder(
                        new StoredHeader("Content-Type", "application/json"),
                        new StoredHeader("LOCATION", "/payments/7"),
                        new StoredHeader("x-Request-Cost", "3"));
    }

    @Test
    void theDenyListWins_inAnyCase() {
        MultivaluedMap<String, Object> response = new MultivaluedHashMap<>();
        response.add("Set-Cookie", "session=1");
        response.add("SET-COOKIE", "other=2");

        assertThat(headers.select(response)).isEmpty();
        assertThat(headers.keeps("Set-Cookie")).isFalse();
        assertThat(headers.keeps("Content-TYPE")).isTrue();
    }

    @Test
    void headersOffTheAllowList_areDropped_andEveryValueOfAKeptOneIsKept() {
        MultivaluedMap<String, Object> response = new MultivaluedHashMap<>();
        response.add("X-Trace", "abc");
        response.add("Location", "/a");
        response.add("Location", "/b");

        assertThat(headers.select(response))
                .containsExactly(
                        new StoredHeader("Location", "/a"), new StoredHeader("Location", "/b"));
    }

    @Test
    void atReplay_theDenyListAndTheFieldRulesApplyAgain() {
        assertThat(
                        headers.replayable(
                                List.of(
                                        new StoredHeader("Location", "/a"),
                                        new StoredHeader("SET-COOKIE", "session=1"),
                                        new StoredHeader("X-Tab", "a\tb"),
                                        new StoredHeader("X-Split", "a\r\nSet-Cookie: x=1"),
                                        new StoredHeader("X-Nul", "a\u0000b"),
                                        new StoredHeader("Bad Name", "v"),
                                        new StoredHeader("X-Del", "a\u007fb"))))
                .containsExactly(
                        new StoredHeader("Location", "/a"), new StoredHeader("X-Tab", "a\tb"));
    }
}
