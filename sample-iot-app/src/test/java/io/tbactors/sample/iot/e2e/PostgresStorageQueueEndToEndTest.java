package io.tbactors.sample.iot.e2e;

/** {@link StorageQueueEndToEndTest} on the postgres profile, against a real PostgreSQL server. */
@OnPostgres
class PostgresStorageQueueEndToEndTest extends StorageQueueEndToEndTest {
}
