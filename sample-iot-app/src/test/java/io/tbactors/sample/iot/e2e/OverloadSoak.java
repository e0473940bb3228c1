package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The overload soak, run by its own command against the packaged jar (skipped by the build):
 * <pre>
 * ./mvnw -B -q package -pl sample-iot-app -am -DskipTests
 * ./mvnw -B -q verify -pl sample-iot-app -am -Dtest=OverloadSoak -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Djacoco.skip=true -Dsample.soak=true -Dsoak.minutes=10
 * </pre>
 * It starts {@code target/sample-iot-app-*.jar} ({@code -Xmx512m}, an H2 file), creates the devices, measures what
 * the app stores per second with one closed-loop client per device (the calibration, after a warm-up round as long
 * as it), then offers ten times that, open
 * loop (requests sent at a fixed rate whatever the answers), for {@code soak.minutes}. Each request carries
 * {@code soak.batch} readings whose value is the request's own number, so the database says exactly which requests
 * are stored. It checks, and reports per minute: the heap's maximum (sampled every 500 ms) stays flat, the process
 * lives, health reports the overload ({@code OVERLOADED}, HTTP 503), 429s are sent; after SIGTERM, every reading of
 * every request answered 200 is in the database. Settings: {@code -Dsoak.devices=20 -Dsoak.batch=4000
 * -Dsoak.factor=10 -Dsoak.calibration-seconds=20 -Dsoak.max-outstanding=2000}; {@code -Dsoak.minutes} may be a
 * fraction ({@code 0.5}) for a short run. The report goes to the log and to {@code target/overload-soak.txt}.
 */
@EnabledIfSystemProperty(named = "sample.soak", matches = "true")
class OverloadSoak {

    private static final Logger log = LoggerFactory.getLogger(OverloadSoak.class);

    private static final long MB = 1024 * 1024;
    private static final long MAX_HEAP = 512 * MB;

    @TempDir
    Path dir;

    private final Map<UUID, Set<Long>> answered = new ConcurrentHashMap<>();
    private final LongAdder ok = new LongAdder();
    private final LongAdder tooMany = new LongAdder();
    private final LongAdder unavailable = new LongAdder();
    private final LongAdder otherFailures = new LongAdder();
    private final LongAdder notSent = new LongAdder();
    private final AtomicLong requestNumber = new AtomicLong();

    @Test
    void aTenfoldOverloadKeepsTheHeapFlatIsReportedAndLosesNothingAnswered() throws Exception {
        int devices = Integer.getInteger("soak.devices", 20);
        int batch = Integer.getInteger("soak.batch", 4000);
        int factor = Integer.getInteger("soak.factor", 10);
        Duration calibration = Duration.ofSeconds(Integer.getInteger("soak.calibration-seconds", 20));
        Duration soak = Duration.ofMillis((long) (Double.parseDouble(System.getProperty("soak.minutes", "10")) * 60_000));
        int maxOutstanding = Integer.getInteger("soak.max-outstanding", 2000);
        Path jar = jar();
        String url = "jdbc:h2:file:" + dir.resolve("soak").toAbsolutePath();
        List<String> report = new ArrayList<>();
        int buckets = (int) Math.max(1, (soak.toMillis() + 59_999) / 60_000);
        AtomicLongArray heapMaxPerMinute = new AtomicLongArray(buckets);
        LongAdder healthSamples = new LongAdder();
        LongAdder overloadedSamples = new LongAdder();
        try (AppProcess app = AppProcess.startJar(jar, url, "512m")) {
            ApiClient api = app.api();
            List<ApiClient.Device> all = new ArrayList<>();
            for (int i = 0; i < devices; i++) {
                ApiClient.Device device = api.createDevice("soak-device-" + i);
                all.add(device);
                answered.put(device.id(), ConcurrentHashMap.newKeySet());
            }
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .executor(Executors.newFixedThreadPool(4)).build();
            String base = api.base();

            // the first round only warms the JIT up: a cold calibration would understate what the app stores
            calibrate(http, base, all, batch, calibration);
            resetCounters();
            double capacity = calibrate(http, base, all, batch, calibration);
            assertThat(capacity).as("readings stored per second during the calibration; log %s", app.log()).isPositive();
            double rate = capacity * factor / batch;
            report.add(String.format(Locale.ROOT, "calibration: %.0f readings/s stored (closed loop, %d clients, %d s); "
                    + "offered: %.1f requests/s of %d readings = %.0f readings/s (%dx) for %s", capacity, devices,
                    calibration.toSeconds(), rate, batch, rate * batch, factor, soak));
            resetCounters();

            long start = System.nanoTime();
            ScheduledExecutorService samplers = Executors.newScheduledThreadPool(2);
            samplers.scheduleAtFixedRate(() -> {
                int minute = (int) Math.min(buckets - 1, (System.nanoTime() - start) / 60_000_000_000L);
                long used = heapUsed(api);
                heapMaxPerMinute.accumulateAndGet(minute, used, Math::max);
            }, 0, 500, TimeUnit.MILLISECONDS);
            samplers.scheduleAtFixedRate(() -> {
                try {
                    ApiClient.Response health = api.getWithoutCredentials("/actuator/health");
                    healthSamples.increment();
                    if (health.status() == 503 && health.body().contains("OVERLOADED")) {
                        overloadedSamples.increment();
                    }
                } catch (RuntimeException e) {
                    // a sample missed under load is no reason to stop
                }
            }, 1, 1, TimeUnit.SECONDS);

            Semaphore outstanding = new Semaphore(maxOutstanding);
            long intervalNanos = (long) (1e9 / rate);
            long next = System.nanoTime();
            long end = start + soak.toNanos();
            int device = 0;
            while (next < end && app.isAlive()) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                if (outstanding.tryAcquire()) {
                    post(http, base, all.get(device++ % all.size()), batch).whenComplete((status, e) -> outstanding.release());
                } else {
                    notSent.increment();
                }
                next += intervalNanos;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            outstanding.tryAcquire(maxOutstanding, 120, TimeUnit.SECONDS);
            samplers.shutdownNow();
            boolean alive = app.isAlive();
            report.add(String.format(Locale.ROOT, "overload: %.0f s; answered 200: %d requests (%.0f readings/s), "
                    + "429: %d, 503: %d, other failures: %d, not sent (client cap %d outstanding): %d", seconds, ok.sum(),
                    ok.sum() * batch / seconds, tooMany.sum(), unavailable.sum(), otherFailures.sum(), maxOutstanding,
                    notSent.sum()));
            List<String> minutes = new ArrayList<>();
            for (int i = 0; i < buckets; i++) {
                minutes.add(String.format(Locale.ROOT, "%d", heapMaxPerMinute.get(i) / MB));
            }
            report.add("heap max per minute (MB, -Xmx512m): " + String.join(", ", minutes));
            report.add(String.format(Locale.ROOT, "health: OVERLOADED (503) in %d of %d samples", overloadedSamples.sum(),
                    healthSamples.sum()));
            assertThat(alive).as("the application lives through the overload; log %s", app.log()).isTrue();
            assertThat(app.terminate(Duration.ofSeconds(120))).as("ends after SIGTERM; log %s", app.log()).isTrue();
            assertThat(Files.readString(app.log())).as("log %s", app.log()).doesNotContain("OutOfMemoryError");
        }
        long missing = missing(url, batch);
        report.add("readings answered 200 missing from the database after SIGTERM: " + missing);
        String text = String.format(Locale.ROOT, "overload soak: %d devices, %d cores, load average %.1f at the end%n",
                devices, Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
                + String.join(System.lineSeparator(), report) + System.lineSeparator();
        log.info("{}{}", System.lineSeparator(), text);
        Files.writeString(Path.of("target", "overload-soak.txt"), text);

        assertThat(missing).isZero();
        assertThat(tooMany.sum()).as("429s under a %dx overload", factor).isPositive();
        assertThat(overloadedSamples.sum()).as("health samples reporting the overload").isPositive();
        long firstHalf = 0;
        for (int i = 0; i < Math.max(1, buckets / 2); i++) {
            firstHalf = Math.max(firstHalf, heapMaxPerMinute.get(i));
        }
        long last = heapMaxPerMinute.get(buckets - 1);
        assertThat(last).as("the last minute's heap maximum against the first half's: flat, not growing")
                .isLessThanOrEqualTo(Math.max(firstHalf + firstHalf / 4, firstHalf + 64 * MB));
        for (int i = 0; i < buckets; i++) {
            assertThat(heapMaxPerMinute.get(i)).as("heap maximum of minute %d", i + 1).isLessThan(MAX_HEAP * 95 / 100);
        }
    }

    private static Path jar() throws Exception {
        try (var files = Files.list(Path.of("target"))) {
            return files.filter(file -> file.getFileName().toString().matches("sample-iot-app-.*\\.jar")
                            && !file.getFileName().toString().endsWith("-plain.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("No jar in sample-iot-app/target: build it first with "
                            + "./mvnw -B -q package -pl sample-iot-app -am -DskipTests"));
        }
    }

    /** A few clients post back to back for a while: what the app stores per second when it is not overloaded. */
    private double calibrate(HttpClient http, String base, List<ApiClient.Device> devices, int batch, Duration time)
            throws Exception {
        long stored = ok.sum();
        long end = System.nanoTime() + time.toNanos();
        long started = System.nanoTime();
        ExecutorService clients = Executors.newFixedThreadPool(devices.size());
        for (ApiClient.Device device : devices) {
            clients.submit(() -> {
                while (System.nanoTime() < end) {
                    post(http, base, device, batch).join();
                }
                return null;
            });
        }
        clients.shutdown();
        clients.awaitTermination(time.toSeconds() + 120, TimeUnit.SECONDS);
        return (ok.sum() - stored) * (double) batch / ((System.nanoTime() - started) / 1e9);
    }

    private void resetCounters() {
        List.of(ok, tooMany, unavailable, otherFailures, notSent).forEach(LongAdder::reset);
    }

    private CompletableFuture<Integer> post(HttpClient http, String base, ApiClient.Device device,
                                                                int batch) {
        long number = requestNumber.incrementAndGet();
        String reading = "{\"s\":" + number + "}";
        StringBuilder body = new StringBuilder(batch * (reading.length() + 1) + 2).append('[');
        for (int i = 0; i < batch; i++) {
            body.append(i == 0 ? "" : ",").append(reading);
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/v1/" + device.token() + "/telemetry"))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.append(']').toString())).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).handle((response, e) -> {
            int status = e == null ? response.statusCode() : -1;
            if (status == 200) {
                ok.increment();
                answered.get(device.id()).add(number);
            } else if (status == 429) {
                tooMany.increment();
            } else if (status == 503) {
                unavailable.increment();
            } else {
                otherFailures.increment();
            }
            return status;
        });
    }

    private static long heapUsed(ApiClient api) {
        return Math.max(0, (long) api.metric("jvm.memory.used?tag=area:heap"));
    }

    /** @return readings of requests answered 200 that are not in the database */
    private long missing(String url, int batch) throws Exception {
        long missing = 0;
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             PreparedStatement statement = connection.prepareStatement(
                     "SELECT long_v, COUNT(*) FROM ts_kv WHERE device_id = ? AND ts_key = 's' GROUP BY long_v")) {
            for (Map.Entry<UUID, Set<Long>> device : answered.entrySet()) {
                statement.setObject(1, device.getKey());
                Map<Long, Long> stored = new HashMap<>();
                try (ResultSet rs = statement.executeQuery()) {
                    while (rs.next()) {
                        stored.put(rs.getLong(1), rs.getLong(2));
                    }
                }
                for (Long request : device.getValue()) {
                    missing += Math.max(0, batch - stored.getOrDefault(request, 0L));
                }
            }
        }
        return missing;
    }
}
