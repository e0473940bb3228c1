package io.tbactors.sample.iot.e2e;

/** {@link RuleChainEndToEndTest} on the postgres profile, against a real PostgreSQL server. */
@OnPostgres
class PostgresRuleChainEndToEndTest extends RuleChainEndToEndTest {
}
