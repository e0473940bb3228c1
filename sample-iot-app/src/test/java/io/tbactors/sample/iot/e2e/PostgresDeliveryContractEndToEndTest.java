package io.tbactors.sample.iot.e2e;

/** {@link DeliveryContractEndToEndTest} on the postgres profile, against a real PostgreSQL server. */
@OnPostgres
class PostgresDeliveryContractEndToEndTest extends DeliveryContractEndToEndTest {
}
