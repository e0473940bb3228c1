package io.tbactors.sample.iot.config;

import io.tbactors.sample.iot.telemetry.DeviceBodyReadFilter;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import tools.jackson.databind.json.JsonMapper;

/**
 * Servlet filters of the application.
 */
@Configuration(proxyBeanMethods = false)
public class WebConfig {

    /**
     * @param properties the device API's limits
     * @param jsonMapper writes refusals
     * @return the device API's non-blocking body reader, first of all filters, on the device API's paths only
     */
    @Bean
    public FilterRegistrationBean<DeviceBodyReadFilter> deviceBodyReadFilter(SampleProperties properties, JsonMapper jsonMapper) {
        FilterRegistrationBean<DeviceBodyReadFilter> registration =
                new FilterRegistrationBean<>(new DeviceBodyReadFilter(properties, jsonMapper));
        registration.addUrlPatterns("/api/v1/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        registration.setAsyncSupported(true);
        return registration;
    }
}
