package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The {@code Postgres...EndToEndTest} classes really run on PostgreSQL: the application, started with the postgres
 * profile, is connected to the test run's server as the profile's user, and the migrations have run there.
 */
@OnPostgres
class PostgresProfileEndToEndTest extends EndToEndTest {

    @Autowired
    DataSource dataSource;

    @Autowired
    Environment environment;

    @Test
    void theApplicationRunsOnPostgresqlWithTheProfilesUserAndTheMigrationsApplied() throws SQLException {
        assertThat(environment.getActiveProfiles()).containsExactly("test", "postgres");
        try (Connection connection = dataSource.getConnection()) {
            assertThat(connection.getMetaData().getDatabaseProductName()).isEqualTo("PostgreSQL");
            assertThat(connection.getMetaData().getUserName()).isEqualTo(TestPostgres.USER);
        }
        JdbcClient jdbc = JdbcClient.create(dataSource);
        assertThat(jdbc.sql("SELECT version FROM flyway_schema_history WHERE success ORDER BY installed_rank")
                .query(String.class).list()).containsExactly("1", "2", "3", "4");
        assertThat(jdbc.sql("SELECT name FROM tenant").query(String.class).list()).containsExactly("Default Tenant");
    }

    @Test
    void aPostedReadingIsARowInPostgresql() {
        ApiClient.Device device = newDevice();

        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"ts\": 7000, \"values\": {\"probe\": 42}}").status())
                .isEqualTo(200);

        // no waiting: answered means stored
        assertThat(JdbcClient.create(dataSource).sql("SELECT long_v FROM ts_kv WHERE device_id = ? AND ts_key = ? AND ts = ?")
                .params(device.id(), "probe", 7000L).query(Long.class).single()).isEqualTo(42L);
    }
}
