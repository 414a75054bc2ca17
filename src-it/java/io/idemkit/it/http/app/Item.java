package io.idemkit.it.http.app;

/**
 * The JSON request body, read by JSON-B: it sees the whole body after idemkit fingerprinted it.
 *
 * @param name any name
 */
public record Item(String name) {}
