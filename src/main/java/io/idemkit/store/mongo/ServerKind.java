package io.idemkit.store.mongo;

import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * What a server said about itself in its {@code isMaster} or {@code hello} reply, which the store
 * reads anyway for the server's clock ({@link ServerClockCommand}).
 *
 * @param maxWireVersion the newest wire protocol version it speaks (8 is MongoDB 4.2), or 0 if it
 *     reported none
 * @param router whether it is a {@code mongos} of a sharded cluster ({@code msg: "isdbgrid"}): then
 *     {@code $$NOW} is the clock of whichever router the driver sent a command to, a different
 *     machine from one command to the next, and there is no primary whose clock to follow
 */
record ServerKind(int maxWireVersion, boolean router) {

    /** Before any reply. */
    static final ServerKind UNKNOWN = new ServerKind(0, false);

    /**
     * @param reply an {@code isMaster} or {@code hello} reply
     * @return what it says
     */
    static ServerKind of(BsonDocument reply) {
        BsonValue wire = reply.get("maxWireVersion");
        BsonValue msg = reply.get("msg");
        return new ServerKind(
                wire != null && wire.isNumber() ? wire.asNumber().intValue() : 0,
                msg != null && msg.isString() && msg.asString().getValue().equals("isdbgrid"));
    }
}
