package io.tbactors.sample.iot.e2e;

/** {@link DeviceOrderEndToEndTest} on the postgres profile, against a real PostgreSQL server. */
@OnPostgres
class PostgresDeviceOrderEndToEndTest extends DeviceOrderEndToEndTest {
}
