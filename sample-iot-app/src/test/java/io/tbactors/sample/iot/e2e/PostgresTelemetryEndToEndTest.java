package io.tbactors.sample.iot.e2e;

/** {@link TelemetryEndToEndTest} on the postgres profile, against a real PostgreSQL server. */
@OnPostgres
class PostgresTelemetryEndToEndTest extends TelemetryEndToEndTest {
}
