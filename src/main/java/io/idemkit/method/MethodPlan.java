package io.idemkit.method;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.IdempotencyKeyMissingException;
import io.idemkit.Idempotent;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.core.hash.LengthPrefixedSha256;
import io.idemkit.spi.IdempotencyRecord;
import java.io.ByteArrayOutputStream;
import java.lang.System.Logger.Level;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the interceptor knows about one method on one bean class, worked out once: which arguments
 * form the key and which the fingerprint, the operation's identity, its policy, and the type its
 * result is rebuilt as. Immutable and thread-safe.
 *
 * <p>Key and identity (contract C1, C7.1): the effective key is {@link EffectiveKey#forMethod} over
 * the key, the scope, the bean class name and the method signature ({@code
 * name(paramType,...)returnType}, erased); with {@link Idempotent#name()} set, over the key, the
 * scope, that name and an empty signature, which no real method has. The key is the one {@link
 * IdempotencyKey} argument's text; several are hashed together length-prefixed in declaration
 * order; without any, the canonical JSON array of every argument not {@link IdempotencyIgnored}
 * (the derived key).
 */
public final class MethodPlan {

    private static final System.Logger LOG = System.getLogger(MethodPlan.class.getName());

    private final String description;
    private final boolean passThrough;
    private final int[] keyParameters;
    private final int[] derivedParameters;
    private final int[] fingerprintParameters;
    private final String identityClass;
    private final String identitySignature;
    private final OperationPolicy policy;
    private final boolean returnsVoid;
    private final boolean returnsStage;
    private final Type resultType;

    /** The transport whose listener method this is, or {@code null}. */
    private final String transport;

    private final AtomicBoolean warnedVolatile = new AtomicBoolean();

    private MethodPlan(
            String description,
            boolean passThrough,
            int[] keyParameters,
            int[] derivedParameters,
            int[] fingerprintParameters,
            String identityClass,
            String identitySignature,
            OperationPolicy policy,
            boolean returnsVoid,
            boolean returnsStage,
            Type resultType,
            String transport) {
        this.description = description;
        this.passThrough = passThrough;
        this.keyParameters = keyParameters;
        this.derivedParameters = derivedParameters;
        this.fingerprintParameters = fingerprintParameters;
        this.identityClass = identityClass;
        this.identitySignature = identitySignature;
        this.policy = policy;
        this.returnsVoid = returnsVoid;
        this.returnsStage = returnsStage;
        this.resultType = resultType;
        this.transport = transport;
    }

    /** A JAX-RS resource method: the filter pair handles it (C7.4). */
    static MethodPlan passThrough(Class<?> beanClass, Method method) {
        return new MethodPlan(
                describe(beanClass, method),
                true,
                new int[0],
                new int[0],
                new int[0],
                "",
                "",
                null,
                false,
                false,
                null,
                null);
    }

    static MethodPlan of(Class<?> beanClass, Method method, OperationPolicy policy) {
        List<Integer> keys = new ArrayList<>();
        List<Integer> derived = new ArrayList<>();
        List<Integer> fingerprinted = new ArrayList<>();
        Annotation[][] annotations = method.getParameterAnnotations();
        for (int i = 0; i < annotations.length; i++) {
            boolean key = has(annotations[i], IdempotencyKey.class);
            boolean ignored = has(annotations[i], IdempotencyIgnored.class);
            if (key) {
                keys.add(i);
            } else if (!ignored) {
                fingerprinted.add(i);
            }
            if (!ignored) {
                derived.add(i);
            }
        }
        if (keys.isEmpty()) {
            // A derived key already covers every argument that is not ignored.
            fingerprinted.clear();
        }
        Idempotent onMethod = method.getAnnotation(Idempotent.class);
        Idempotent onType = beanClass.getAnnotation(Idempotent.class);
        String name =
                onMethod != null && !onMethod.name().isBlank()
                        ? onMethod.name()
                        : onType != null && !onType.name().isBlank() ? onType.name() : "";
        Type generic = method.getGenericReturnType();
        boolean stage = CompletionStage.class.isAssignableFrom(method.getReturnType());
        Type result = stage ? stageValueType(generic) : generic;
        // A class-level name would merge all the class's methods into one operation; the
        // signature keeps them apart while the name still survives a class rename.
        boolean methodNamed = onMethod != null && !onMethod.name().isBlank();
        return new MethodPlan(
                describe(beanClass, method),
                false,
                ints(keys),
                ints(derived),
                ints(fingerprinted),
                name.isEmpty() ? beanClass.getName() : name,
                methodNamed ? "" : signature(method),
                policy,
                method.getReturnType() == void.class,
                stage,
                result,
                MessageTransports.installed()
                        .receiving(beanClass, method)
                        .map(MessageTransport::name)
                        .orElse(null));
    }

    boolean passesThrough() {
        return passThrough;
    }

    /**
     * @return whether this is a transport's listener method ({@link MessageTransport}), keyed by
     *     its message (C11) rather than by its arguments
     */
    boolean receivesMessages() {
        return transport != null;
    }

    /**
     * @return the name of the transport whose listener method this is, or {@code null}
     */
    String transport() {
        return transport;
    }

    public OperationPolicy policy() {
        return policy;
    }

    boolean returnsVoid() {
        return returnsVoid;
    }

    boolean returnsStage() {
        return returnsStage;
    }

    /** The type results are stored and rebuilt as: the return type, or a stage's value type. */
    Type resultType() {
        return resultType;
    }

    public String description() {
        return description;
    }

    /**
     * @return the effective key of a call
     * @throws IdempotencyKeyMissingException if a key argument is null or empty
     */
    String effectiveKey(Object[] arguments, String scope, ArgumentJson json) {
        return EffectiveKey.forMethod(
                key(arguments, json), scope, identityClass, identitySignature);
    }

    /**
     * @param key a key the surface read itself (a message's key)
     * @param scope the caller's scope
     * @return the effective key of that key for this method: the same parts as a call's
     */
    public String effectiveKeyOf(String key, String scope) {
        return EffectiveKey.forMethod(key, scope, identityClass, identitySignature);
    }

    /**
     * @return the fingerprint of the arguments that are neither key nor ignored
     */
    String fingerprint(Object[] arguments, ArgumentJson json) {
        byte[][] parts = new byte[fingerprintParameters.length][];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = argumentJson(arguments, fingerprintParameters[i], json);
        }
        return LengthPrefixedSha256.hex(parts);
    }

    public int fingerprintVersion() {
        return IdempotencyRecord.CURRENT_FINGERPRINT_VERSION;
    }

    private String key(Object[] arguments, ArgumentJson json) {
        if (keyParameters.length == 1) {
            return keyText(arguments, keyParameters[0], json);
        }
        if (keyParameters.length > 1) {
            byte[][] parts = new byte[keyParameters.length][];
            for (int i = 0; i < parts.length; i++) {
                parts[i] =
                        keyText(arguments, keyParameters[i], json).getBytes(StandardCharsets.UTF_8);
            }
            return LengthPrefixedSha256.hex(parts);
        }
        ByteArrayOutputStream array = new ByteArrayOutputStream();
        array.write('[');
        for (int i = 0; i < derivedParameters.length; i++) {
            if (i > 0) {
                array.write(',');
            }
            if (!warnedVolatile.get()) {
                warnIfVolatile(derivedParameters[i], arguments[derivedParameters[i]]);
            }
            array.writeBytes(argumentJson(arguments, derivedParameters[i], json));
        }
        array.write(']');
        return array.toString(StandardCharsets.UTF_8);
    }

    /**
     * Says once per method when a derived key takes a value that looks made afresh for each call
     * (C7.1, the reference's §8.2). Only a warning, in every {@code idemkit.method.derived-key}
     * mode: a UUID-shaped value can be an id the caller sends again on every retry, which is a fine
     * key; the fix is then to name it the key.
     */
    private void warnIfVolatile(int index, Object value) {
        Optional<String> why = DerivedKeys.volatileValue(value);
        if (why.isPresent() && warnedVolatile.compareAndSet(false, true)) {
            LOG.log(
                    Level.WARNING,
                    "idemkit derives the key of "
                            + description
                            + " from all its arguments, and argument "
                            + index
                            + " "
                            + why.get()
                            + ", which is usually made afresh for each call (a time, a random id):"
                            + " a retry is then a new operation and runs again. Mark it"
                            + " @IdempotencyIgnored, or give the method an @IdempotencyKey"
                            + " parameter; if the caller sends the same value again on every retry,"
                            + " make that parameter the key (said once).");
        }
    }

    private String keyText(Object[] arguments, int index, ArgumentJson json) {
        Object value = arguments[index];
        String text;
        if (value == null) {
            text = "";
        } else if (value instanceof CharSequence chars) {
            text = chars.toString();
        } else {
            text = new String(argumentJson(arguments, index, json), StandardCharsets.UTF_8);
        }
        if (text.isEmpty()) {
            throw new IdempotencyKeyMissingException(
                    "The @IdempotencyKey parameter "
                            + index
                            + " of "
                            + description
                            + " was "
                            + (value == null ? "null" : "empty")
                            + "; the call was not run. Pass a stable, non-empty key that stays the"
                            + " same when the call is retried.");
        }
        return text;
    }

    private byte[] argumentJson(Object[] arguments, int index, ArgumentJson json) {
        try {
            return json.canonical(arguments[index]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "idemkit cannot hash argument "
                            + index
                            + " of "
                            + description
                            + ": "
                            + e.getMessage()
                            + ". Mark it @IdempotencyIgnored, or give the method an"
                            + " @IdempotencyKey parameter and make this argument JSON-B"
                            + " serializable.",
                    e);
        }
    }

    private static boolean has(Annotation[] annotations, Class<? extends Annotation> type) {
        for (Annotation annotation : annotations) {
            if (annotation.annotationType() == type) {
                return true;
            }
        }
        return false;
    }

    private static int[] ints(List<Integer> list) {
        return list.stream().mapToInt(Integer::intValue).toArray();
    }

    private static Type stageValueType(Type generic) {
        if (generic instanceof ParameterizedType parameterized
                && parameterized.getActualTypeArguments().length == 1) {
            return parameterized.getActualTypeArguments()[0];
        }
        return Object.class;
    }

    static String signature(Method method) {
        StringBuilder signature = new StringBuilder(method.getName()).append('(');
        Class<?>[] parameters = method.getParameterTypes();
        for (int i = 0; i < parameters.length; i++) {
            if (i > 0) {
                signature.append(',');
            }
            signature.append(parameters[i].getTypeName());
        }
        return signature.append(')').append(method.getReturnType().getTypeName()).toString();
    }

    private static String describe(Class<?> beanClass, Method method) {
        return beanClass.getName() + "." + method.getName() + "()";
    }
}
