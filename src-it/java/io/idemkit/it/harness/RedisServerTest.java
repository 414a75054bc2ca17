package io.idemkit.it.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * {@link RedisServer} on the real {@code redis-server} binary: it answers, it starts again on its
 * port, its AOF survives a crash, a pause stalls it, a replica replicates.
 */
class RedisServerTest {

    @Test
    void shared_answersPingAndTime_onLoopback() {
        RedisServer server = RedisServer.shared();
        try (Jedis jedis = server.connect()) {
            assertThat(jedis.ping()).isEqualTo("PONG");
            List<String> time = jedis.time();
            assertThat(Long.parseLong(time.get(0))).isPositive();
        }
        assertThat(server.host()).isEqualTo("127.0.0.1");
        assertThat(server.uri()).isEqualTo("redis://127.0.0.1:" + server.port());
        assertThat(RedisServer.shared()).isSameAs(server);
        assertThat(server.folder().resolve("redis.log")).exists();
    }

    @Test
    void stopThenStart_servesOnTheSamePort_andAStoppedServerRefusesConnections() {
        try (RedisServer server = RedisServer.builder().start()) {
            int port = server.port();
            server.stop();
            assertThat(server.running()).isFalse();
            assertThatThrownBy(() -> server.connect().ping())
                    .isInstanceOf(JedisConnectionException.class);

            server.start();

            assertThat(server.port()).isEqualTo(port);
            try (Jedis jedis = server.connect()) {
                assertThat(jedis.ping()).isEqualTo("PONG");
                assertThat(jedis.configGet("port")).containsEntry("port", String.valueOf(port));
            }
        }
    }

    @Test
    void killThenStart_withAppendOnly_keepsAKeyWrittenBeforeTheKill() {
        String key = UUID.randomUUID().toString();
        try (RedisServer server = RedisServer.builder().appendOnly(true).start()) {
            try (Jedis jedis = server.connect()) {
                jedis.set(key, "kept");
            }

            server.kill();
            assertThat(server.running()).isFalse();
            server.start();

            try (Jedis jedis = server.connect()) {
                assertThat(jedis.get(key)).isEqualTo("kept");
            }
        }
    }

    @Test
    void killThenStart_withoutAppendOnly_losesTheKey() {
        String key = UUID.randomUUID().toString();
        try (RedisServer server = RedisServer.builder().start()) {
            try (Jedis jedis = server.connect()) {
                jedis.set(key, "lost");
            }
            server.kill();
            server.start();
            try (Jedis jedis = server.connect()) {
                assertThat(jedis.get(key)).isNull();
            }
        }
    }

    @Test
    void pause_makesACommandTimeOut_resumeMakesItAnswerAgain() {
        try (RedisServer server = RedisServer.builder().start();
                Jedis jedis = server.connect(500)) {
            assertThat(jedis.ping()).isEqualTo("PONG");

            server.pause();

            // the connection stays open (no refusal, no reset): the command finds no answer
            assertThatThrownBy(jedis::ping)
                    .isInstanceOf(JedisConnectionException.class)
                    .hasRootCauseInstanceOf(SocketTimeoutException.class);
            assertThat(server.running()).isTrue();

            server.resume();
            try (Jedis again = server.connect(500)) {
                assertThat(again.ping()).isEqualTo("PONG");
            }
        }
    }

    @Test
    void replicaOf_replicatesAKey_fromAPrimaryWithAPassword() {
        String key = UUID.randomUUID().toString();
        try (RedisServer primary = RedisServer.builder().requirePass("s3cret").start();
                RedisServer replica =
                        RedisServer.builder().replicaOf(primary).requirePass("s3cret").start()) {
            try (Jedis jedis = primary.connect()) {
                jedis.set(key, "copied");
            }
            try (Jedis jedis = new Jedis(primary.host(), primary.port())) {
                assertThatThrownBy(() -> jedis.get(key))
                        .isInstanceOf(JedisDataException.class)
                        .hasMessageContaining("NOAUTH");
            }

            try (Jedis jedis = replica.connect()) {
                assertThat(jedis.info("replication")).contains("role:slave");
                org.awaitility.Awaitility.await().until(() -> "copied".equals(jedis.get(key)));
            }
        }
    }

    @Test
    void aBadOption_failsTheStart_withTheServersComplaint() {
        assertThatThrownBy(() -> RedisServer.builder().config("no-such-option", "1").start())
                .isInstanceOf(IllegalStateException.class)
                .hasStackTraceContaining("exited")
                .hasStackTraceContaining("no-such-option");
    }

    @Test
    void theBinary_isChosenByPlatform_andThereIsNoneForWindows() {
        assertThat(RedisBinary.resource("Linux", "amd64"))
                .contains("redis-server-6.2.6-v5-linux-amd64");
        assertThat(RedisBinary.resource("Mac OS X", "aarch64"))
                .contains("redis-server-6.2.6-v5-darwin-arm64");
        assertThat(RedisBinary.resource("Windows 11", "amd64")).isEmpty();
        assertThat(RedisBinary.resource("Linux", "s390x")).isEmpty();
        assertThat(RedisBinary.path()).isExecutable();
    }

    @Test
    void maxMemory_withNoEviction_refusesWritesPastIt() {
        try (RedisServer server = RedisServer.builder().maxMemory("2mb", "noeviction").start();
                Jedis jedis = server.connect()) {
            String value = "x".repeat(10_000);
            assertThatThrownBy(
                            () -> {
                                for (int i = 0; i < 1_000; i++) {
                                    jedis.set("k" + i, value);
                                }
                            })
                    .isInstanceOf(JedisDataException.class)
                    .hasMessageContaining("OOM");
        }
    }

    @Test
    void close_deletesTheFolder() {
        RedisServer server = RedisServer.builder().start();
        server.close();
        assertThat(server.running()).isFalse();
        assertThat(Files.exists(server.folder())).isFalse();
    }
}
