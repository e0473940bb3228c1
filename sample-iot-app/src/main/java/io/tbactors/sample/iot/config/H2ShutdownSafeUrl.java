package io.tbactors.sample.iot.config;

import java.util.Locale;
import java.util.regex.Pattern;

import lombok.extern.slf4j.Slf4j;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.stereotype.Component;

/**
 * Makes every H2 URL safe against H2's own JVM shutdown hook, which closes a database (in memory or in a file) the
 * moment the JVM begins to exit, while the actors still drain what was accepted before the stop: their saves would
 * fail and readings answered 200 would be missing. With {@code DB_CLOSE_ON_EXIT=FALSE} the database stays open
 * until the connection pool closes, which Spring does after the actors have stopped. The option is appended to an
 * H2 URL that lacks it and forced to {@code FALSE} in one that says otherwise; other databases are left alone.
 */
@Slf4j
@Component
public class H2ShutdownSafeUrl implements BeanPostProcessor {

    private static final String SAFE = "DB_CLOSE_ON_EXIT=FALSE";
    private static final Pattern CLOSE_ON_EXIT = Pattern.compile("(?i);\\s*DB_CLOSE_ON_EXIT\\s*=\\s*[^;]*");

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        // after initialization: the properties are bound by then
        if (bean instanceof DataSourceProperties properties) {
            String url = properties.getUrl();
            String safe = safe(url);
            if (safe != null && !safe.equals(url)) {
                log.info("H2 database URL: added {} so that the database closes after the actors drain, not in H2's "
                        + "shutdown hook", SAFE);
                properties.setUrl(safe);
            }
        }
        return bean;
    }

    /**
     * @param url a JDBC URL, or null
     * @return the same URL when it is not H2's or already safe; else with {@code DB_CLOSE_ON_EXIT=FALSE}
     */
    public static String safe(String url) {
        if (url == null || !url.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:")) {
            return url;
        }
        return CLOSE_ON_EXIT.matcher(url).replaceAll("") + ";" + SAFE;
    }
}
