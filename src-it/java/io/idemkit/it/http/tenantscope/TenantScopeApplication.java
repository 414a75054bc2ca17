package io.idemkit.it.http.tenantscope;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** An application whose tenants are told apart by its own scope provider bean (C5). */
@ApplicationPath("api")
public class TenantScopeApplication extends Application {}
