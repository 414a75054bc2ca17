package io.idemkit.it.transaction.slowcommit;

import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** The test's hands: calls the bean, and reports what happened to a key. */
@Path("slow-commit")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class SlowCommitResource {

    @Inject SlowCommits payments;

    @Inject Progress progress;

    @Inject IdempotencyStore store;

    @POST
    public String pay(
            @QueryParam("key") String key,
            @QueryParam("commitMillis") @DefaultValue("0") long commitMillis) {
        return payments.pay(key, commitMillis);
    }

    /** The state of a key's record, or {@code none}. */
    @GET
    @Path("record/{key}")
    public String record(@PathParam("key") String key) {
        String effectiveKey =
                EffectiveKey.forMethod(
                        key,
                        ScopeResolver.SINGLE_TENANT_SCOPE,
                        SlowCommits.class.getName(),
                        "pay(java.lang.String,long)java.lang.String");
        return store.find(effectiveKey)
                .map(IdempotencyRecord::state)
                .map(Enum::name)
                .orElse("none");
    }

    /**
     * How often something happened to a key: runs, committing, commit-interrupted; or, for the key
     * {@code all}, how many events of a decision the application saw ({@link Decisions}).
     */
    @GET
    @Path("{what}/{key}")
    public String count(@PathParam("what") String what, @PathParam("key") String key) {
        return Integer.toString(progress.get(what, key));
    }
}
