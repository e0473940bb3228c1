package io.tbactors.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import io.tbactors.spring.TestActors.DeviceMsg;
import io.tbactors.spring.TestActors.Outcomes;
import io.tbactors.spring.TestActors.RouterCreator;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A web application with the starter and actuator: messages go in through {@link ActorSystemContext}, the state
 * comes out over HTTP, and closing the application under load loses no message. The test framework cannot let a
 * test close the context it manages, so the shutdown test closes a second instance of the same application.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    ActorsStarterIntegrationTest.EXPOSE, ActorsStarterIntegrationTest.SHOW_DETAILS, ActorsStarterIntegrationTest.DEVICES_TYPE,
    ActorsStarterIntegrationTest.DEVICES_POOL, ActorsStarterIntegrationTest.WAIT_TIME, ActorsStarterIntegrationTest.SHUTDOWN_TIMEOUT
})
class ActorsStarterIntegrationTest {

    static final String EXPOSE = "management.endpoints.web.exposure.include=health,tbactorsdispatchers,tbactors,metrics";
    static final String SHOW_DETAILS = "management.endpoint.health.show-details=always";
    static final String DEVICES_TYPE = "tb.actors.dispatchers.devices.type=fork-join";
    static final String DEVICES_POOL = "tb.actors.dispatchers.devices.pool-size=2";
    static final String WAIT_TIME = "tb.actors.metrics.wait-time=true";
    static final String SHUTDOWN_TIMEOUT = "tb.actors.shutdown-timeout=20s";

    private static final int DEVICES = 10;
    private static final int MESSAGES = 100;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @LocalServerPort
    private int port;

    @Autowired
    private ActorSystemContext actors;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class DeviceApplication {
        @Bean
        RouterCreator rootActor() {
            return new RouterCreator(null, "devices");
        }
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET().build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private DocumentContext getJson(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = get(path);
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return JsonPath.parse(response.body());
    }

    private void processOneHundredMessages() {
        Outcomes outcomes = new Outcomes();
        for (int i = 0; i < MESSAGES; i++) {
            actors.tell(new DeviceMsg("d" + (i % DEVICES), outcomes));
        }
        await().untilAsserted(() -> assertThat(outcomes.processed).hasValue(MESSAGES));
    }

    @Test
    void healthDispatchersAndActorsAreReadableOverHttp() throws Exception {
        processOneHundredMessages();

        DocumentContext health = getJson("/actuator/health");
        assertThat(health.read("$.components.actors.status", String.class)).isEqualTo("UP");
        assertThat(health.read("$.components.actors.details.dispatchers.devices.actors", Integer.class)).isEqualTo(DEVICES);
        assertThat(health.read("$.components.actors.details.acceptingMessages", Boolean.class)).isTrue();

        DocumentContext dispatchers = getJson("/actuator/tbactorsdispatchers");
        assertThat(dispatchers.read("$.dispatchers[*].name", List.class)).containsExactly("default", "devices");
        DocumentContext devices = getJson("/actuator/tbactorsdispatchers/devices");
        assertThat(devices.read("$.kind", String.class)).isEqualTo("fork-join");
        assertThat(devices.read("$.poolSize", Integer.class)).isEqualTo(2);
        assertThat(devices.read("$.completedTurns", Long.class)).isPositive();
        assertThat(get("/actuator/tbactorsdispatchers/nowhere").statusCode()).isEqualTo(404);

        DocumentContext overview = getJson("/actuator/tbactors?limit=3");
        assertThat(overview.read("$.count", Integer.class)).isEqualTo(DEVICES + 1);
        assertThat(overview.read("$.rootActor", String.class)).isEqualTo("router");
        assertThat(overview.read("$.byType.DeviceActor", Integer.class)).isEqualTo(DEVICES);
        assertThat(overview.read("$.byDispatcher.default.RouterActor", Integer.class)).isEqualTo(1);
        DocumentContext device = getJson("/actuator/tbactors/" + TestActors.deviceId("d3").toString().replace("|", "%7C"));
        assertThat(device.read("$.entityType", String.class)).isEqualTo("DEVICE");
        assertThat(device.read("$.dispatcher", String.class)).isEqualTo("devices");
        assertThat(device.read("$.parent", String.class)).isEqualTo("router");
        assertThat(get("/actuator/tbactors/" + TestActors.deviceId("unknown").toString().replace("|", "%7C")).statusCode())
                .isEqualTo(404);
    }

    @Test
    void metricsAreReadableOverHttpWithLowCardinalityTags() throws Exception {
        processOneHundredMessages();

        DocumentContext processed = getJson("/actuator/metrics/tb.actors.messages.processing"
                + "?tag=actor.type:DeviceActor&tag=outcome:success");
        assertThat(processed.read("$.measurements[?(@.statistic=='COUNT')].value", List.class))
                .singleElement().satisfies(count -> assertThat(((Number) count).doubleValue()).isGreaterThanOrEqualTo(MESSAGES));
        assertThat(processed.read("$.baseUnit", String.class)).isEqualTo("seconds");
        assertThat(processed.read("$.availableTags[*].tag", List.class)).containsOnly("dispatcher");
        assertThat(get("/actuator/metrics/tb.actors.messages.processed").statusCode()).as("no counter repeats the timer's count")
                .isEqualTo(404);
        DocumentContext alive = getJson("/actuator/metrics/tb.actors.alive?tag=actor.type:DeviceActor");
        assertThat(alive.read("$.measurements[0].value", Double.class)).isEqualTo(DEVICES);
        DocumentContext waited = getJson("/actuator/metrics/tb.actors.messages.wait?tag=dispatcher:devices");
        assertThat(waited.read("$.measurements[?(@.statistic=='COUNT')].value", List.class)).isNotEmpty();
        DocumentContext parallelism = getJson("/actuator/metrics/tb.actors.executor.parallelism?tag=name:devices");
        assertThat(parallelism.read("$.measurements[0].value", Double.class)).isEqualTo(2.0);
        assertThat(getJson("/actuator/metrics/tb.actors.mailbox.backlog").read("$.availableTags[*].tag", List.class))
                .containsExactly("dispatcher");
    }

    @Test
    void closingTheApplicationUnderLoadLosesNoMessage() throws Exception {
        ConfigurableApplicationContext application = new SpringApplicationBuilder(DeviceApplication.class)
                .properties("server.port=0", EXPOSE, SHOW_DETAILS, DEVICES_TYPE, DEVICES_POOL, WAIT_TIME, SHUTDOWN_TIMEOUT)
                .run();
        ActorSystemContext actors = application.getBean(ActorSystemContext.class);
        TbActorSystemIntrospection system = actors.getIntrospection().orElseThrow();
        Outcomes outcomes = new Outcomes();
        AtomicInteger told = new AtomicInteger();
        AtomicBoolean keepTelling = new AtomicBoolean(true);
        Thread teller = new Thread(() -> {
            int i = 0;
            while (keepTelling.get()) {
                // keep the backlog bounded so the drain is short; this paces the producer, it waits on nothing
                if (told.get() - outcomes.total() > 2_000) {
                    LockSupport.parkNanos(100_000);
                    continue;
                }
                told.incrementAndGet();
                actors.tell(new DeviceMsg("d" + (i++ % 20), outcomes, 20_000));
            }
        }, "test-teller");
        teller.start();
        await().untilAsserted(() -> assertThat(outcomes.processed.get()).isGreaterThan(2_000));

        application.close();
        int toldAfterClose = told.get();
        await().untilAsserted(() -> assertThat(told.get()).isGreaterThan(toldAfterClose + 10));
        keepTelling.set(false);
        teller.join(10_000);

        assertThat(teller.isAlive()).isFalse();
        assertThat(system.isRunning()).isFalse();
        assertThat(outcomes.total()).as("every message processed or told STOPPED").isEqualTo(told.get());
        assertThat(outcomes.stopped.get()).as("messages refused after shutdown began").isGreaterThan(10)
                .isGreaterThanOrEqualTo((int) actors.getRejectedMessageCount());
        assertThat(system.getActorCount()).isZero();
    }
}
