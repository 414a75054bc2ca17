package io.idemkit.demo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Sorts;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.bson.Document;
import org.eclipse.microprofile.config.Config;

/**
 * The charges the demo really made, one document each in the collection {@value #COLLECTION} of the
 * same MongoDB database as idemkit's records, so that both survive a restart together.
 */
@ApplicationScoped
public class Charges {

    static final String COLLECTION = "demo_charges";

    private static final System.Logger LOG = System.getLogger(Charges.class.getName());
    private static final String DATABASE = "idemkit.mongo.database";
    private static final String DATABASE_DEFAULT = "idemkit";

    private final MongoCollection<Document> collection;
    private final Clock clock;

    /** For the CDI proxy only. */
    protected Charges() {
        this.collection = null;
        this.clock = null;
    }

    /**
     * @param mongo the demo's MongoDB
     * @param config where the database name is read
     */
    @Inject
    public Charges(DemoMongo mongo, Config config) {
        this.collection =
                mongo.client()
                        .getDatabase(
                                config.getOptionalValue(DATABASE, String.class)
                                        .orElse(DATABASE_DEFAULT))
                        .getCollection(COLLECTION);
        this.clock = Clock.systemUTC();
    }

    // Connects at deployment, so the log says at once where the data lives and what is there.
    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        LOG.log(Level.INFO, "idemkit demo: " + count() + " charges made so far");
    }

    /**
     * Makes a charge: the side effect that must happen once per payment.
     *
     * @param request a valid request
     * @return the charge made
     */
    public Charge make(PaymentRequest request) {
        Charge charge =
                new Charge(
                        "ch_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16),
                        request.minorUnits().orElseThrow(),
                        request.currency().toUpperCase(Locale.ROOT),
                        request.to(),
                        // Milliseconds: what a BSON date holds, so a listed charge reads the same.
                        clock.instant().truncatedTo(ChronoUnit.MILLIS));
        collection.insertOne(
                new Document("_id", charge.id())
                        .append("amount", charge.amount())
                        .append("currency", charge.currency())
                        .append("to", charge.to())
                        .append("charged_at", Date.from(charge.chargedAt())));
        return charge;
    }

    /**
     * @return every charge made, oldest first
     */
    public List<Charge> all() {
        List<Charge> charges = new ArrayList<>();
        for (Document d : collection.find().sort(Sorts.ascending("charged_at"))) {
            charges.add(toCharge(d));
        }
        return charges;
    }

    /**
     * @param id a charge's id
     * @return that charge, if it was made
     */
    public Optional<Charge> find(String id) {
        return Optional.ofNullable(collection.find(new Document("_id", id)).first())
                .map(Charges::toCharge);
    }

    private long count() {
        return collection.countDocuments();
    }

    private static Charge toCharge(Document d) {
        return new Charge(
                d.getString("_id"),
                d.getLong("amount"),
                d.getString("currency"),
                d.getString("to"),
                d.getDate("charged_at").toInstant());
    }
}
