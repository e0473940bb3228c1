package io.tbactors.sample.iot.e2e;

/** {@link SimulatorEndToEndTest} on the postgres profile, against a real PostgreSQL server. */
@OnPostgres
class PostgresSimulatorEndToEndTest extends SimulatorEndToEndTest {
}
