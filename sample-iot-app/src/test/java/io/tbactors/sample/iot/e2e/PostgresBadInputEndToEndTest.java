package io.tbactors.sample.iot.e2e;

/** {@link BadInputEndToEndTest} on the postgres profile, against a real PostgreSQL server. */
@OnPostgres
class PostgresBadInputEndToEndTest extends BadInputEndToEndTest {
}
