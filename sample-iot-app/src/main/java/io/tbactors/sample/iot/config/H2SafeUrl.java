package io.tbactors.sample.iot.config;

import java.util.Locale;
import java.util.regex.Pattern;

import lombok.extern.slf4j.Slf4j;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.stereotype.Component;

/**
 * Makes every H2 URL keep the delivery contract through a stop and, for a database in a file, through a crash.
 * <ul>
 *   <li>{@code DB_CLOSE_ON_EXIT=FALSE}: H2's own JVM shutdown hook closes a database (in memory or in a file) the
 *   moment the JVM begins to exit, while the actors still drain what was accepted before the stop: their saves would
 *   fail and readings answered 200 would be missing. With the option the database stays open until the connection
 *   pool closes, which Spring does after the actors have stopped.</li>
 *   <li>{@code WRITE_DELAY=0}, on a database this JVM opens from a file ({@code jdbc:h2:file:}, or a path): by default
 *   H2 writes committed transactions to the file in the background, up to 500 ms later, so a reading answered 200
 *   (or PUBACKed) would be lost by a {@code kill -9} in that time. With no delay each commit is in the file (the
 *   operating system's cache, which survives the process) before the commit returns, and so before the answer.</li>
 * </ul>
 * Each option is appended to an H2 URL that lacks it and forced to its safe value in one that says otherwise; an
 * in-memory or remote ({@code tcp:}, {@code ssl:}) URL gets no write delay (nothing to write, or the server's JVM
 * decides); other databases are left alone.
 */
@Slf4j
@Component
public class H2SafeUrl implements BeanPostProcessor {

    private static final String CLOSE_AFTER_DRAIN = "DB_CLOSE_ON_EXIT=FALSE";
    private static final String WRITE_AT_COMMIT = "WRITE_DELAY=0";
    private static final Pattern CLOSE_ON_EXIT = Pattern.compile("(?i);\\s*DB_CLOSE_ON_EXIT\\s*=\\s*[^;]*");
    private static final Pattern WRITE_DELAY = Pattern.compile("(?i);\\s*WRITE_DELAY\\s*=\\s*[^;]*");
    private static final Pattern NOT_IN_A_LOCAL_FILE = Pattern.compile("(?i)^jdbc:h2:(mem|tcp|ssl):.*");

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        // after initialization: the properties are bound by then
        if (bean instanceof DataSourceProperties properties) {
            String url = properties.getUrl();
            String safe = safe(url);
            if (safe != null && !safe.equals(url)) {
                log.info("H2 database URL: now {}; DB_CLOSE_ON_EXIT=FALSE so that the database closes after the actors "
                        + "drain, not in H2's shutdown hook; WRITE_DELAY=0 (a file database) so that a commit is in the "
                        + "file before a reading is answered", safe);
                properties.setUrl(safe);
            }
        }
        return bean;
    }

    /**
     * @param url a JDBC URL, or null
     * @return the same URL when it is not H2's or already safe; else with {@code DB_CLOSE_ON_EXIT=FALSE} and, for a
     *         database in a local file, {@code WRITE_DELAY=0}
     */
    public static String safe(String url) {
        if (url == null || !url.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:")) {
            return url;
        }
        String safe = CLOSE_ON_EXIT.matcher(url).replaceAll("") + ";" + CLOSE_AFTER_DRAIN;
        if (!NOT_IN_A_LOCAL_FILE.matcher(url).matches()) {
            safe = WRITE_DELAY.matcher(safe).replaceAll("") + ";" + WRITE_AT_COMMIT;
        }
        return safe;
    }
}
