package io.tbactors.sample.iot.e2e;

/** {@link BackPressureEndToEndTest} on the postgres profile, against a real PostgreSQL server. */
@OnPostgres
class PostgresBackPressureEndToEndTest extends BackPressureEndToEndTest {
}
