package io.idemkit.config;

import io.idemkit.IdempotencyWire;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * The engine's and the surfaces' configuration keys, with their defaults. A bundled store declares
 * its own keys in its wing ({@code store.jdbc.JdbcKeys}) and hands them to the unknown-key check
 * through its factory. Keys are read through MicroProfile Config, so they can be set in {@code
 * microprofile-config.properties}, as Liberty {@code server.xml} variables, or as environment
 * variables ({@code IDEMKIT_LEASE_TTL}).
 */
public final class ConfigKeys {

    /** The prefix of every key. */
    public static final String PREFIX = "idemkit.";

    /**
     * Which store: {@code auto}, or the name a bundled store declares ({@code memory}, {@code
     * mongo}, {@code jdbc}); {@code auto} takes the first store its configuration asks for (MongoDB
     * on a URI or a client bean), else memory.
     */
    public static final String STORE = PREFIX + "store";

    /** Default of {@link #STORE}. */
    public static final String STORE_DEFAULT = "auto";

    /** How long a claim holds its key (a duration). */
    public static final String LEASE_TTL = PREFIX + "lease-ttl";

    /** Default of {@link #LEASE_TTL}. */
    public static final String LEASE_TTL_DEFAULT = "30s";

    /** How long a completed result is replayed, counted from completion (a duration). */
    public static final String COMPLETED_TTL = PREFIX + "completed-ttl";

    /** Default of {@link #COMPLETED_TTL}. */
    public static final String COMPLETED_TTL_DEFAULT = "24h";

    /** How long a duplicate waits for an in-flight call (a duration, zero for no wait). */
    public static final String WAIT_TIMEOUT = PREFIX + "wait-timeout";

    /** Default of {@link #WAIT_TIMEOUT}. */
    public static final String WAIT_TIMEOUT_DEFAULT = "10s";

    /** The most threads of a JVM that wait on one key at once (≥ 1); past it, "in progress". */
    public static final String MAX_WAITERS_PER_KEY = PREFIX + "max-waiters-per-key";

    /** Default of {@link #MAX_WAITERS_PER_KEY}: far above real duplicates, far below a pool. */
    public static final String MAX_WAITERS_PER_KEY_DEFAULT = "64";

    /** What a store failure at admission does: {@code fail-closed} or {@code fail-open}. */
    public static final String ON_STORAGE_ERROR = PREFIX + "on-storage-error";

    /** Default of {@link #ON_STORAGE_ERROR}. */
    public static final String ON_STORAGE_ERROR_DEFAULT = "fail-closed";

    /**
     * Without a scope source: {@code warn}, {@code single-tenant} (acknowledged) or {@code strict}.
     */
    public static final String SCOPE_MODE = PREFIX + "scope-mode";

    /** Default of {@link #SCOPE_MODE}. */
    public static final String SCOPE_MODE_DEFAULT = "warn";

    /**
     * Where scope comes from: {@code auto} (an IdempotencyScopeProvider bean, if any) or {@code
     * principal}.
     */
    public static final String SCOPE_SOURCE = PREFIX + "scope-source";

    /** Default of {@link #SCOPE_SOURCE}. */
    public static final String SCOPE_SOURCE_DEFAULT = "auto";

    /** The largest response body stored for replay, in bytes. */
    public static final String MAX_BODY_BYTES = PREFIX + "max-body-bytes";

    /** Default of {@link #MAX_BODY_BYTES}: 1 MiB. */
    public static final String MAX_BODY_BYTES_DEFAULT = "1048576";

    /** Which outcomes are stored: status classes, codes and ranges, comma-separated. */
    public static final String CACHEABLE_STATUS = PREFIX + "cacheable-status";

    /** Default of {@link #CACHEABLE_STATUS}: success only. */
    public static final String CACHEABLE_STATUS_DEFAULT = "2xx";

    /** Whether a lost lease also interrupts the operation's thread (boolean). */
    public static final String HEARTBEAT_INTERRUPT = PREFIX + "heartbeat.interrupt";

    /** Default of {@link #HEARTBEAT_INTERRUPT}. */
    public static final String HEARTBEAT_INTERRUPT_DEFAULT = "true";

    /**
     * Where a method in a JTA transaction completes its record: {@code after-commit}, or {@code
     * in-transaction} with the business writes (C13; the JDBC store only).
     */
    public static final String COMPLETION = PREFIX + "completion";

    /** Default of {@link #COMPLETION}. */
    public static final String COMPLETION_DEFAULT = "after-commit";

    /** The request header that carries a JAX-RS request's key, unless a method says otherwise. */
    public static final String KEY_HEADER = PREFIX + "key-header";

    /** Default of {@link #KEY_HEADER}. */
    public static final String KEY_HEADER_DEFAULT = IdempotencyWire.KEY_HEADER;

    /**
     * The class of the {@code IdempotencyKeyExtractor} bean that takes every JAX-RS request's key
     * from the request, unless a method says otherwise; empty for the key header. Setting it with
     * {@link #KEY_HEADER} is a configuration error.
     */
    public static final String KEY_EXTRACTOR = PREFIX + "key-extractor";

    /** Default of {@link #KEY_EXTRACTOR}: none, the key header carries the key. */
    public static final String KEY_EXTRACTOR_DEFAULT = "";

    /** Request headers that enter every JAX-RS request's fingerprint, comma-separated. */
    public static final String FINGERPRINT_HEADERS = PREFIX + "fingerprint.headers";

    /** Default of {@link #FINGERPRINT_HEADERS}: none. */
    public static final String FINGERPRINT_HEADERS_DEFAULT = "";

    /**
     * The JSON body fields that enter every JAX-RS request's fingerprint in place of its body,
     * comma-separated paths such as {@code amount, order.id} (contract C6.11).
     */
    public static final String FINGERPRINT_FIELDS = PREFIX + "fingerprint.fields";

    /** Default of {@link #FINGERPRINT_FIELDS}: none, the whole body. */
    public static final String FINGERPRINT_FIELDS_DEFAULT = "";

    /**
     * What the deployment does about method keys derived from all the arguments: {@code warn} about
     * arguments that look volatile, {@code strict} (fail on them), or {@code refuse} every derived
     * key.
     */
    public static final String METHOD_DERIVED_KEY = PREFIX + "method.derived-key";

    /** Default of {@link #METHOD_DERIVED_KEY}. */
    public static final String METHOD_DERIVED_KEY_DEFAULT = "warn";

    /**
     * The JMS property that carries a message's own key (C11.1), so that a producer's re-send is
     * still a duplicate; a message without it is keyed by its {@code JMSMessageID}.
     */
    public static final String MESSAGE_KEY_PROPERTY = PREFIX + "message.key-property";

    /** Default of {@link #MESSAGE_KEY_PROPERTY}. */
    public static final String MESSAGE_KEY_PROPERTY_DEFAULT = "IdempotencyKey";

    /** How many times a message-driven bean runs for one failing message (C11.3), positive. */
    public static final String MESSAGE_MAX_ATTEMPTS = PREFIX + "message.max-attempts";

    /** Default of {@link #MESSAGE_MAX_ATTEMPTS}. */
    public static final String MESSAGE_MAX_ATTEMPTS_DEFAULT = "3";

    /**
     * What a message's fingerprint covers: {@code none} (the key alone, as in the reference) or
     * {@code body} (another body under one key is a payload mismatch).
     */
    public static final String MESSAGE_FINGERPRINT = PREFIX + "message.fingerprint";

    /** Default of {@link #MESSAGE_FINGERPRINT}. */
    public static final String MESSAGE_FINGERPRINT_DEFAULT = "none";

    /**
     * The JTA transaction timeout message-driven beans run under (a duration; {@code 0s}: none),
     * which the lease rule (C11.4) is checked against; unset, read from the server where it can be,
     * else assumed ({@link TransactionTimeout#ASSUMED}, with a warning).
     */
    public static final String MESSAGE_TRANSACTION_TIMEOUT = PREFIX + "message.transaction-timeout";

    /** Default of {@link #MESSAGE_TRANSACTION_TIMEOUT}: unset, the server's own is read. */
    public static final String MESSAGE_TRANSACTION_TIMEOUT_DEFAULT = "";

    /**
     * Where a message's key comes from (C17.1): {@code property} (the key property or header, else
     * the message's own identity) or {@code record-key} (a Kafka record's key).
     */
    public static final String MESSAGE_KEY_SOURCE = PREFIX + "message.key-source";

    /** Default of {@link #MESSAGE_KEY_SOURCE}. */
    public static final String MESSAGE_KEY_SOURCE_DEFAULT = "property";

    /**
     * What becomes of a Kafka record given up after its attempts (C17.4): {@code acknowledge} or
     * {@code nack} ({@link ExhaustedRecords}).
     */
    public static final String MESSAGE_EXHAUSTED = PREFIX + "message.exhausted";

    /** Default of {@link #MESSAGE_EXHAUSTED}. */
    public static final String MESSAGE_EXHAUSTED_DEFAULT = "acknowledge";

    /**
     * What a duplicate record of a processor sends on (C17.6): {@code re-emit} or {@code drop}
     * ({@link ProcessorDuplicates}).
     */
    public static final String MESSAGE_PROCESSOR_DUPLICATES =
            PREFIX + "message.processor-duplicates";

    /** Default of {@link #MESSAGE_PROCESSOR_DUPLICATES}. */
    public static final String MESSAGE_PROCESSOR_DUPLICATES_DEFAULT = "re-emit";

    private ConfigKeys() {}

    /**
     * @return every key above (not the defaults, not the prefix), sorted
     */
    public static Set<String> all() {
        return declaredBy(ConfigKeys.class);
    }

    /**
     * @param holder a class whose public static {@code String} fields are keys and their defaults
     *     (named {@code *_DEFAULT}), as this one and each store's {@code *Keys}
     * @return the keys it declares (not the defaults, not {@link #PREFIX}), sorted
     */
    public static Set<String> declaredBy(Class<?> holder) {
        Set<String> keys = new TreeSet<>();
        for (Field field : holder.getFields()) {
            if (Modifier.isStatic(field.getModifiers())
                    && field.getType() == String.class
                    && !field.getName().endsWith("_DEFAULT")
                    && !field.getName().equals("PREFIX")) {
                try {
                    keys.add((String) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return Collections.unmodifiableSet(keys);
    }
}
