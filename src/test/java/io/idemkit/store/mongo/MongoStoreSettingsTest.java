package io.idemkit.store.mongo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.WriteConcern;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MongoStoreSettingsTest {

    @Test
    void defaults_areTheDocumentedOnes() {
        MongoStoreSettings defaults = MongoStoreSettings.defaults();

        assertThat(defaults.uri()).isNull();
        assertThat(defaults.database()).isEqualTo("idemkit");
        assertThat(defaults.collection()).isEqualTo("idemkit_records");
        assertThat(defaults.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.writeConcern()).isNull();
        assertThat(defaults.driverWriteConcern()).isEmpty();
        assertThat(defaults.leaseGrace()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void negativeTimeout_isRefusedInTheHouseFormat() {
        assertThatThrownBy(() -> MongoStoreSettings.defaults().withTimeout(Duration.ofSeconds(-5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid idemkit.mongo.timeout=-5s: must be positive");
    }

    @Test
    void zeroOrSubMillisecondTimeout_isRefused() {
        assertThatThrownBy(() -> MongoStoreSettings.defaults().withTimeout(Duration.ZERO))
                .hasMessage("Invalid idemkit.mongo.timeout=0s: must be positive");
        assertThatThrownBy(() -> MongoStoreSettings.defaults().withTimeout(Duration.ofNanos(10)))
                .hasMessage("Invalid idemkit.mongo.timeout=PT0.00000001S: must be at least 1ms");
    }

    @Test
    void negativeLeaseGrace_isRefused() {
        assertThatThrownBy(
                        () ->
                                MongoStoreSettings.defaults()
                                        .withLeaseGrace(Duration.ofMillis(-1500)))
                .hasMessage("Invalid idemkit.mongo.lease-grace=-1500ms: must not be negative");
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 4999})
    void leaseGraceBelowFiveSeconds_isRefusedWithTheReason(long millis) {
        assertThatThrownBy(
                        () ->
                                MongoStoreSettings.defaults()
                                        .withLeaseGrace(Duration.ofMillis(millis)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "Invalid idemkit.mongo.lease-grace="
                                + MongoStoreSettings.format(Duration.ofMillis(millis))
                                + ": must be at least 5s: the TTL monitor deletes a record on the"
                                + " shard primary's clock")
                .hasMessageContaining("lets it delete a live claim");
    }

    @Test
    void leaseGraceOfFiveSeconds_isTheMinimumAllowed() {
        assertThat(MongoStoreSettings.MINIMUM_LEASE_GRACE).isEqualTo(Duration.ofSeconds(5));
        assertThat(
                        MongoStoreSettings.defaults()
                                .withLeaseGrace(MongoStoreSettings.MINIMUM_LEASE_GRACE)
                                .leaseGrace())
                .isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void writeConcern_acceptsMajorityAcknowledgedAndAMemberCount() {
        assertThat(MongoStoreSettings.defaults().withWriteConcern("majority").driverWriteConcern())
                .contains(WriteConcern.MAJORITY);
        assertThat(
                        MongoStoreSettings.defaults()
                                .withWriteConcern("acknowledged")
                                .driverWriteConcern())
                .contains(WriteConcern.ACKNOWLEDGED);
        assertThat(MongoStoreSettings.defaults().withWriteConcern("2").driverWriteConcern())
                .contains(new WriteConcern(2));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "unacknowledged", "w1", "", "99999999999"})
    void otherWriteConcerns_areRefused(String value) {
        assertThatThrownBy(() -> MongoStoreSettings.defaults().withWriteConcern(value))
                .hasMessage(
                        "Invalid idemkit.mongo.write-concern="
                                + value
                                + ": must be majority, acknowledged or a number of 1 or more");
    }

    @Test
    void nonMongoUri_isRefusedWithoutShowingIt() {
        assertThatThrownBy(() -> MongoStoreSettings.forUri("user:secret@localhost:27017"))
                .hasMessage(
                        "Invalid idemkit.mongo.uri (value not shown, it may hold a password):"
                                + " must start with mongodb:// or mongodb+srv://");
    }

    @Test
    void invalidUri_isRefusedWithoutShowingItsPassword() {
        assertThatThrownBy(() -> MongoStoreSettings.forUri("mongodb://alice:s3cret@host:99999"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid idemkit.mongo.uri=mongodb://***@host:99999:")
                .message()
                .doesNotContain("s3cret");
    }

    @Test
    void toString_hidesThePassword() {
        MongoStoreSettings settings = MongoStoreSettings.forUri("mongodb://alice:s3cret@db:27017");

        assertThat(settings.toString()).contains("mongodb://***@db:27017").doesNotContain("s3cret");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a.b", "a b", "a/b", "a$b", "a\"b"})
    void invalidDatabaseNames_areRefused(String name) {
        assertThatThrownBy(() -> MongoStoreSettings.defaults().withDatabase(name))
                .hasMessageStartingWith("Invalid idemkit.mongo.database=" + name + ": ");
    }

    @Test
    void overlongDatabaseName_isRefused() {
        assertThatThrownBy(() -> MongoStoreSettings.defaults().withDatabase("d".repeat(64)))
                .hasMessageEndingWith(": must be at most 63 bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a$b", "system.records"})
    void invalidCollectionNames_areRefused(String name) {
        assertThatThrownBy(() -> MongoStoreSettings.defaults().withCollection(name))
                .hasMessageStartingWith("Invalid idemkit.mongo.collection=" + name + ": ");
    }

    @Test
    void missingDurations_areRefused() {
        assertThatThrownBy(() -> MongoStoreSettings.defaults().withTimeout(null))
                .hasMessage("Invalid idemkit.mongo.timeout=null: must be set");
        assertThatThrownBy(() -> MongoStoreSettings.defaults().withLeaseGrace(null))
                .hasMessage("Invalid idemkit.mongo.lease-grace=null: must be set");
    }
}
