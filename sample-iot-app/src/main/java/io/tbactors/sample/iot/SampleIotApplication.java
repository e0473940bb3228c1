package io.tbactors.sample.iot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.cache.annotation.EnableCaching;

/**
 * The sample IoT backend: devices post telemetry over HTTP, rule chains process it on actors, results land in
 * the database.
 */
@SpringBootApplication
@EnableCaching
@ConfigurationPropertiesScan
public class SampleIotApplication {

    /** For Spring, which instantiates the configuration class; not a utility class despite its static main. */
    protected SampleIotApplication() {
    }

    /**
     * Starts the application.
     *
     * @param args command-line arguments, e.g. {@code --server.port=9090}
     */
    public static void main(String[] args) {
        SpringApplication.run(SampleIotApplication.class, args);
    }
}
