package io.tbactors.sample.iot.e2e;

/** {@link AlarmEndToEndTest} on the postgres profile, against a real PostgreSQL server. */
@OnPostgres
class PostgresAlarmEndToEndTest extends AlarmEndToEndTest {
}
