package io.idemkit.store.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.ServerAddress;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;

/**
 * Proxies of the driver's {@code MongoDatabase} and {@code MongoCollection} that pass every call to
 * a real one (on mongo-java-server), except the calls a test picks, which throw one of the driver's
 * own exception types instead of being sent. Nothing of the wire is imitated: every call that
 * passes is answered by the real server. A database's {@code with...} and {@code getCollection}
 * results are proxied with the same rule.
 */
final class FailingMongo {

    static final ServerAddress ADDRESS = new ServerAddress("db.example", 27017);

    /** Decides for each call whether it fails. */
    interface Rule {
        /**
         * @return the exception to throw instead of making the call, or {@code null} to make it
         */
        RuntimeException failure(Object target, Method method, Object[] args);
    }

    private FailingMongo() {}

    static MongoDatabase database(MongoDatabase real, Rule rule) {
        return proxy(real, MongoDatabase.class, rule);
    }

    @SuppressWarnings("unchecked")
    static MongoCollection<BsonDocument> collection(MongoCollection<BsonDocument> real, Rule rule) {
        return proxy(real, MongoCollection.class, rule);
    }

    /**
     * Fails the n-th pipeline update ({@code findOneAndUpdate} with a list of stages) with what
     * {@code nth} returns for n (counted from 1), or passes it when that is {@code null}.
     */
    static final class PipelineUpdates implements Rule {
        private final IntFunction<RuntimeException> nth;
        private final AtomicInteger seen = new AtomicInteger();

        PipelineUpdates(IntFunction<RuntimeException> nth) {
            this.nth = nth;
        }

        /** Every pipeline update fails with {@code e}. */
        static PipelineUpdates always(RuntimeException e) {
            return new PipelineUpdates(n -> e);
        }

        @Override
        public RuntimeException failure(Object target, Method method, Object[] args) {
            if (method.getName().equals("findOneAndUpdate")
                    && args != null
                    && args.length >= 2
                    && args[1] instanceof List) {
                return nth.apply(seen.incrementAndGet());
            }
            return null;
        }

        /** How many pipeline updates were made or failed so far. */
        int count() {
            return seen.get();
        }
    }

    /** A server's command error, as the driver builds it from the reply. */
    static MongoCommandException commandError(int code, String codeName, String... labels) {
        BsonDocument reply =
                new BsonDocument("ok", new BsonInt32(0))
                        .append("code", new BsonInt32(code))
                        .append("codeName", new BsonString(codeName))
                        .append("errmsg", new BsonString(codeName + " in a test"));
        if (labels.length > 0) {
            BsonArray array = new BsonArray();
            for (String label : labels) {
                array.add(new BsonString(label));
            }
            reply.append("errorLabels", array);
        }
        return new MongoCommandException(reply, ADDRESS);
    }

    /** The reply document of a command error, for the driver's subclasses. */
    static BsonDocument reply(int code, String codeName) {
        return commandError(code, codeName).getResponse();
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Object real, Class<?> type, Rule rule) {
        return (T)
                Proxy.newProxyInstance(
                        FailingMongo.class.getClassLoader(),
                        new Class<?>[] {type},
                        (self, method, args) -> {
                            RuntimeException failure = rule.failure(real, method, args);
                            if (failure != null) {
                                throw failure;
                            }
                            Object result;
                            try {
                                result = method.invoke(real, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                            if (result instanceof MongoDatabase db) {
                                return proxy(db, MongoDatabase.class, rule);
                            }
                            if (result instanceof MongoCollection<?> c) {
                                return proxy(c, MongoCollection.class, rule);
                            }
                            return result;
                        });
    }
}
