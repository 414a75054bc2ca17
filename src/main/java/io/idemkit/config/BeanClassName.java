package io.idemkit.config;

import java.util.regex.Pattern;

/**
 * The rule for a bean's class named in configuration or an annotation member (a redactor, a key
 * extractor): a fully qualified Java class name, nested classes with {@code $}. Which bean it is,
 * the CDI glue decides.
 */
public final class BeanClassName {

    private static final Pattern CLASS_NAME =
            Pattern.compile(
                    "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*"
                            + "(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*");

    private BeanClassName() {}

    /**
     * @param text a member's value
     * @param spi the simple name of the interface the class must implement, for the message
     * @throws IllegalArgumentException if it is no fully qualified class name
     */
    public static void check(String text, String spi) {
        if (!CLASS_NAME.matcher(text).matches()) {
            throw new IllegalArgumentException(
                    "must be the fully qualified name of a bean class implementing " + spi);
        }
    }
}
