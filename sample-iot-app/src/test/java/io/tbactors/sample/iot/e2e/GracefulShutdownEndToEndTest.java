package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.tbactors.sample.iot.SampleIotApplication;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Stops the application while devices keep posting, then reads the database it leaves behind: every reading that
 * was answered 200 must be there. Its own application context, since it closes it; on the in-memory H2 of the test
 * profile and on the postgres profile against the test run's PostgreSQL server (see {@link TestPostgres}).
 */
class GracefulShutdownEndToEndTest {

    private static final int DEVICES = 8;

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"h2", "postgres"})
    void aShutdownWithMessagesInFlightLosesNoneThatWereAnswered200(String database) throws Exception {
        boolean postgres = database.equals("postgres");
        String url = postgres ? TestPostgres.newDatabase() : "jdbc:h2:mem:shutdown-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        ConfigurableApplicationContext app = new SpringApplicationBuilder(SampleIotApplication.class)
                .profiles(postgres ? new String[] {"test", "postgres"} : new String[] {"test"})
                // one rule thread: a backlog builds up in the rule engine, so the shutdown has work in flight to drain
                .run("--spring.datasource.url=" + url, "--tb.actors.dispatchers.rule.pool-size=1");
        ApiClient api = new ApiClient(Integer.parseInt(app.getEnvironment().getProperty("local.server.port")));
        List<ApiClient.Device> devices = new ArrayList<>();
        for (int i = 0; i < DEVICES; i++) {
            devices.add(api.createDevice("shutdown-device-" + i));
        }
        ConcurrentHashMap<UUID, Set<Long>> answered200 = new ConcurrentHashMap<>();
        AtomicInteger total = new AtomicInteger();
        ExecutorService posters = Executors.newFixedThreadPool(DEVICES);
        for (ApiClient.Device device : devices) {
            Set<Long> accepted = ConcurrentHashMap.newKeySet();
            answered200.put(device.id(), accepted);
            posters.submit(() -> {
                // post until the server stops answering; a refused connection or a 503 ends the loop
                for (long seq = 0; seq < 100_000; seq++) {
                    try {
                        if (api.postAsDevice(device.token(), "telemetry", "{\"seq\": " + seq + "}").status() != 200) {
                            return;
                        }
                    } catch (IllegalStateException connectionRefused) {
                        return;
                    }
                    accepted.add(seq);
                    total.incrementAndGet();
                }
            });
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> total.get() >= 400);
        app.close();
        posters.shutdown();
        assertThat(posters.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

        int checked = 0;
        try (Connection connection = postgres ? DriverManager.getConnection(url, TestPostgres.USER, TestPostgres.USER)
                : DriverManager.getConnection(url, "sa", "")) {
            for (ApiClient.Device device : devices) {
                Set<Long> stored = storedSeqs(connection, device.id());
                assertThat(stored).as("device %s", device.id()).containsAll(answered200.get(device.id()));
                checked += answered200.get(device.id()).size();
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(400);
    }

    /**
     * @param connection the database
     * @param deviceId a device
     * @return the values of its readings of key {@code seq}
     * @throws Exception when the query fails
     */
    static Set<Long> storedSeqs(Connection connection, UUID deviceId) throws Exception {
        Set<Long> seqs = new HashSet<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT long_v FROM ts_kv WHERE device_id = ? AND ts_key = 'seq'")) {
            statement.setObject(1, deviceId);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    seqs.add(rs.getLong(1));
                }
            }
        }
        return seqs;
    }
}
