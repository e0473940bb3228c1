package io.tbactors.sample.iot.tenant;

import java.util.UUID;

/**
 * The tenant that the API works in. The schema and the actors are multi-tenant; the sample's API is not, so every
 * device and rule chain it creates belongs to this tenant, which the second migration inserts.
 */
public final class DefaultTenant {

    /** Id of the default tenant (see {@code V2__default_tenant.sql}). */
    public static final UUID ID = UUID.fromString("5a3c1e80-0000-4000-8000-000000000001");

    private DefaultTenant() {
    }
}
