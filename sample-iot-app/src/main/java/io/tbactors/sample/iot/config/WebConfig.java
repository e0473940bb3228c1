package io.tbactors.sample.iot.config;

import io.tbactors.sample.iot.telemetry.DeviceApiHandler;
import io.tbactors.sample.iot.telemetry.DeviceApiServlet;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/**
 * Servlets of the application beside Spring MVC's.
 */
@Configuration(proxyBeanMethods = false)
public class WebConfig {

    /**
     * @param properties the device API's limits
     * @param handler the device API's logic
     * @param jsonMapper writes refusals
     * @return the device API's servlet on {@code /api/v1/*}: non-blocking reads, one dispatch a request
     */
    @Bean
    public ServletRegistrationBean<DeviceApiServlet> deviceApiServlet(SampleProperties properties, DeviceApiHandler handler,
                                                                      JsonMapper jsonMapper) {
        ServletRegistrationBean<DeviceApiServlet> registration =
                new ServletRegistrationBean<>(new DeviceApiServlet(properties, handler, jsonMapper), "/api/v1/*");
        registration.setName("deviceApi");
        registration.setAsyncSupported(true);
        registration.setLoadOnStartup(1);
        return registration;
    }
}
