package io.tbactors.sample.iot.e2e;

import org.springframework.test.context.TestPropertySource;

/**
 * {@link MqttBackPressureEndToEndTest} with the pause coming from the device's and tenant's in-flight bounds (the HTTP
 * API's 429) rather than the connection's: the connection may have 256 messages in flight, the device and its tenant
 * only {@value MqttBackPressureEndToEndTest#BOUND} readings, so the server stops reading when the limiter refuses.
 */
@TestPropertySource(properties = {
    "sample.mqtt.max-in-flight-per-connection=256",
    "sample.device-api.max-in-flight-per-device=" + MqttBackPressureEndToEndTest.BOUND,
    "sample.device-api.max-in-flight-per-tenant=" + MqttBackPressureEndToEndTest.BOUND
})
class MqttTenantBoundEndToEndTest extends MqttBackPressureEndToEndTest {
}
