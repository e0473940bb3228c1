package io.tbactors.sample.iot.ingestion;

import io.tbactors.sample.iot.config.SampleProperties;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.stereotype.Component;

/**
 * The {@code deviceApi} health component: {@link #OVERLOADED} while the device API refuses readings with 429 (within
 * {@code sample.device-api.overload-health-window} of the last refusal), else {@code UP}; details give the values
 * in flight and the bounds. application.yml ranks {@code OVERLOADED} in the overall status and maps it to HTTP 503, so
 * a load balancer reading {@code /actuator/health} sees the overload.
 */
@Component
public class DeviceApiHealthIndicator extends AbstractHealthIndicator {

    /** The status while the device API refuses readings for lack of room. */
    public static final Status OVERLOADED = new Status("OVERLOADED", "The device API refuses readings with 429");

    private final InFlightLimiter limiter;
    private final long windowNanos;

    /**
     * @param limiter counts values in flight and refusals
     * @param properties the window
     */
    public DeviceApiHealthIndicator(InFlightLimiter limiter, SampleProperties properties) {
        super("Device API health check failed");
        this.limiter = limiter;
        this.windowNanos = properties.getDeviceApi().getOverloadHealthWindow().toNanos();
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("inFlightValues", limiter.getInFlightValues())
                .withDetail("maxInFlightPerDevice", limiter.getPerDevice())
                .withDetail("maxInFlightPerTenant", limiter.getPerTenant())
                .withDetail("refused", limiter.getRefused())
                .withDetail("heldRequests", limiter.getHeldRequests());
        if (limiter.refusedWithin(windowNanos)) {
            builder.status(OVERLOADED);
        } else {
            builder.up();
        }
    }
}
