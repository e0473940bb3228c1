package io.tbactors.sample.iot.e2e;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

/**
 * Base of the end-to-end tests: the whole application on a random port with its own in-memory database, the
 * simulator off; the test classes share one application context.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
abstract class EndToEndTest {

    private static final AtomicInteger DEVICE_NUMBER = new AtomicInteger();

    @LocalServerPort
    int port;

    ApiClient api;

    @BeforeEach
    void connect() {
        api = new ApiClient(port);
    }

    ApiClient.Device newDevice() {
        return api.createDevice(getClass().getSimpleName() + "-device-" + DEVICE_NUMBER.incrementAndGet());
    }
}
