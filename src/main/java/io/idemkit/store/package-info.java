/**
 * What the bundled stores share, and the one seam between each store's wing and the CDI glue.
 *
 * <ul>
 *   <li>{@link io.idemkit.store.StoreFactory}: a store's wing as the glue sees it, one
 *       implementation in each store package ({@code store.memory}, {@code store.mongo}, {@code
 *       store.jdbc}) and listed in {@code META-INF/services/io.idemkit.store.StoreFactory}; with
 *       {@link io.idemkit.store.StoreResources} (what the container has for a store), {@link
 *       io.idemkit.store.StoreDriver} (a driver the application may lack) and {@link
 *       io.idemkit.store.StoreSelection} (which store {@code idemkit.store} gives, C8);
 *   <li>{@link io.idemkit.store.CompletionPoll}: the wait of {@code awaitCompletion} and the
 *       completion signals that end it (C4.3).
 * </ul>
 *
 * The argument checks of every operation are the SPI's ({@link io.idemkit.spi.StoreArguments}), so
 * that a store of an application's own refuses what the bundled ones do. It uses only the API, the
 * SPI, core and the configuration; the store packages use it, and it uses no store. A new store is
 * a new package beside the others, with its factory, and a line in the services file: nothing in
 * the glue changes.
 *
 * <p>Internal: no compatibility guaranteed.
 */
package io.idemkit.store;
