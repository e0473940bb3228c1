package io.tbactors.sample.iot.console;

import java.time.Duration;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import lombok.Getter;
import lombok.Setter;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the web console, under {@code sample.console}.
 */
@Getter
@Setter
@Validated
@ConfigurationProperties(prefix = "sample.console")
public class ConsoleProperties {

    /** Time between two looks at devices, alarms and actors; what changed is pushed to open consoles. */
    @NotNull
    private Duration refreshInterval = Duration.ofSeconds(1);

    /** Longest life of one event stream; the browser then opens a new one (it also does after a restart). */
    @NotNull
    private Duration streamTimeout = Duration.ofMinutes(10);

    /** Most devices the console lists with their latest values (the oldest first). */
    @Min(1)
    @Max(100_000)
    private int maxDevices = 1000;

    /** Most alarms the console lists, newest first. */
    @Min(1)
    @Max(100_000)
    private int maxAlarms = 200;

    /** Most actors the console's actor tree shows; the counts cover all of them. */
    @Min(1)
    @Max(1_000_000)
    private int maxActors = 2000;

    /** @return whether the refresh interval is between 100 ms and 1 minute */
    @AssertTrue(message = "sample.console.refresh-interval must be between 100ms and 1m")
    public boolean isRefreshIntervalInRange() {
        return refreshInterval == null
                || refreshInterval.compareTo(Duration.ofMillis(100)) >= 0 && refreshInterval.compareTo(Duration.ofMinutes(1)) <= 0;
    }

    /** @return whether the stream timeout is at least 10 seconds */
    @AssertTrue(message = "sample.console.stream-timeout must be at least 10s")
    public boolean isStreamTimeoutInRange() {
        return streamTimeout == null || streamTimeout.compareTo(Duration.ofSeconds(10)) >= 0;
    }
}
