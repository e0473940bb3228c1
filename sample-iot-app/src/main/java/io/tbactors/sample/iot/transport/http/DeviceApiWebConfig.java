package io.tbactors.sample.iot.transport.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.tbactors.sample.iot.config.SampleProperties;
import io.micrometer.observation.ObservationPredicate;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * Servlets of the application beside Spring MVC's.
 */
@Configuration(proxyBeanMethods = false)
public class DeviceApiWebConfig {

    /**
     * @param properties the device API's limits
     * @param handler the device API's logic
     * @param longPolls the device API's long polls and requests that ask something back
     * @param jsonMapper writes refusals
     * @param meters where the device API's timer goes
     * @return the device API's servlet on {@code /api/v1/*}: non-blocking reads, one dispatch a request
     */
    @Bean
    public ServletRegistrationBean<DeviceApiServlet> deviceApiServlet(SampleProperties properties, DeviceApiHandler handler,
                                                                      DeviceLongPolls longPolls, JsonMapper jsonMapper,
                                                                      MeterRegistry meters) {
        ServletRegistrationBean<DeviceApiServlet> registration = new ServletRegistrationBean<>(
                new DeviceApiServlet(properties, handler, longPolls, jsonMapper, meters), "/api/v1/*");
        registration.setName("deviceApi");
        registration.setAsyncSupported(true);
        registration.setLoadOnStartup(1);
        return registration;
    }

    /**
     * The device API is timed by its own meter ({@link DeviceApiServlet#REQUESTS_METER}); the observation of
     * {@code http.server.requests} per post (a context, key values, a meter lookup, under the URI tag {@code UNKNOWN}
     * since no MVC pattern matched) is left out for its paths. The other APIs keep it.
     *
     * @return a predicate that declines {@code http.server.requests} for {@code /api/v1/} paths
     */
    @Bean
    public ObservationPredicate deviceApiNotInHttpServerRequests() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext server
                && server.getCarrier() != null && server.getCarrier().getRequestURI().startsWith("/api/v1/"));
    }
}
