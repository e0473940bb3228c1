package io.tbactors.sample.iot.e2e;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test of the application in a JVM of its own ({@link AppProcess}) on a database that outlives it: an H2 file in a
 * temporary folder, or a fresh database on the test run's PostgreSQL server. Whatever the test leaves running is killed.
 */
abstract class AppProcessTest {

    @TempDir
    Path dir;

    AppProcess app;

    @AfterEach
    void killWhatIsLeft() {
        if (app != null) {
            app.close();
        }
    }

    /**
     * @param database {@code h2} or {@code postgres}
     * @return a JDBC URL: an H2 file in the test's folder, as the README gives it, or a new PostgreSQL database
     */
    String databaseUrl(String database) {
        return "postgres".equals(database) ? TestPostgres.newDatabase()
                : "jdbc:h2:file:" + dir.resolve("sample-iot").toAbsolutePath();
    }
}
