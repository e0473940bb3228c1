package io.tbactors.sample.iot.simulator;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import io.tbactors.core.dispatch.NamedThreadFactory;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import io.tbactors.sample.iot.alarm.AlarmService;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.stats.IotStats;
import io.tbactors.spring.ActorSystemContext;
import lombok.extern.slf4j.Slf4j;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Simulated devices that post telemetry ({@code temperature}, {@code humidity}) through the real device API, HTTP
 * or MQTT ({@code sample.simulator.transport}), each at {@code sample.simulator.interval}, with a share of readings
 * above the alarm threshold; and a status line every {@code sample.simulator.status-interval}. Starts after the web
 * server, the MQTT server and the actors, stops before them ({@link SmartLifecycle#DEFAULT_PHASE}).
 */
@Slf4j
@Component
@ConditionalOnBooleanProperty(name = "sample.simulator.enabled")
public class DeviceSimulator implements SmartLifecycle {

    private static final String NAME_FORMAT = "sim-device-%03d";

    private final SampleProperties.Simulator settings;
    private final double threshold;
    private final DeviceService deviceService;
    private final AlarmService alarmService;
    private final ActorSystemContext actorSystemContext;
    private final IotStats stats;
    private final Environment environment;
    private final LongAdder sent = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final Semaphore inFlight;
    private HttpClient httpClient;
    private MqttSimulatorClients mqttClients;
    private ScheduledExecutorService scheduler;
    private List<Device> devices = List.of();
    private StatusSnapshot lastStatus;
    private volatile boolean running;

    /**
     * @param properties the settings
     * @param deviceService creates the simulated devices
     * @param alarmService counts active alarms for the status line
     * @param actorSystemContext actor counts and backlog for the status line
     * @param stats message counters for the status line
     * @param environment gives the server's port
     */
    public DeviceSimulator(SampleProperties properties, DeviceService deviceService, AlarmService alarmService,
                           ActorSystemContext actorSystemContext, IotStats stats, Environment environment) {
        this.settings = properties.getSimulator();
        this.threshold = properties.getRuleEngine().getTemperatureThreshold();
        this.deviceService = deviceService;
        this.alarmService = alarmService;
        this.actorSystemContext = actorSystemContext;
        this.stats = stats;
        this.environment = environment;
        this.inFlight = new Semaphore(settings.getMaxInFlight());
    }

    @Override
    public void start() {
        devices = ensureDevices();
        String target;
        List<Function<String, CompletableFuture<Boolean>>> senders = new ArrayList<>();
        if (settings.getTransport() == SampleProperties.Transport.MQTT) {
            String mqttPort = environment.getProperty("local.mqtt.port");
            if (mqttPort == null) {
                throw new IllegalStateException("sample.simulator.transport=mqtt needs the MQTT device API: set "
                        + "sample.mqtt.enabled=true, or sample.simulator.transport=http");
            }
            try {
                mqttClients = new MqttSimulatorClients(Integer.parseInt(mqttPort), devices, settings.getMaxInFlight());
            } catch (MqttException e) {
                throw new IllegalStateException("The simulator could not connect its devices to the MQTT device API on "
                        + "port " + mqttPort + ": " + e.getMessage(), e);
            }
            for (int i = 0; i < devices.size(); i++) {
                int device = i;
                senders.add(reading -> mqttClients.send(device, reading));
            }
            target = "mqtt://localhost:" + mqttPort + " (QoS 1)";
        } else {
            String port = environment.getProperty("local.server.port", environment.getProperty("server.port", "8080"));
            URI base = URI.create("http://localhost:" + port + "/api/v1/");
            httpClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                    .build();
            for (Device device : devices) {
                URI uri = base.resolve(device.accessToken() + "/telemetry");
                senders.add(reading -> postHttp(uri, reading));
            }
            target = base.toString();
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("simulator"));
        long periodMs = Math.max(1, settings.getInterval().toMillis());
        for (int i = 0; i < devices.size(); i++) {
            Function<String, CompletableFuture<Boolean>> sender = senders.get(i);
            long offset = periodMs * i / devices.size();
            scheduler.scheduleAtFixedRate(() -> send(sender), offset, periodMs, TimeUnit.MILLISECONDS);
        }
        long statusMs = settings.getStatusInterval().toMillis();
        lastStatus = snapshot();
        scheduler.scheduleAtFixedRate(this::logStatus, statusMs, statusMs, TimeUnit.MILLISECONDS);
        running = true;
        log.info("Simulator started: {} devices posting every {} to {} ({}% of readings above {})", devices.size(),
                settings.getInterval(), target, Math.round(settings.getAlarmShare() * 100), threshold);
    }

    private List<Device> ensureDevices() {
        List<Device> result = new ArrayList<>(settings.getDevices());
        for (int i = 1; i <= settings.getDevices(); i++) {
            String name = String.format(Locale.ROOT, NAME_FORMAT, i);
            result.add(deviceService.findByName(name).orElseGet(() -> deviceService.create(name, "thermostat")));
        }
        return result;
    }

    private void send(Function<String, CompletableFuture<Boolean>> sender) {
        if (!inFlight.tryAcquire()) {
            skipped.increment();
            return;
        }
        sender.apply(reading()).whenComplete((stored, failure) -> {
            inFlight.release();
            if (failure == null && stored) {
                sent.increment();
            } else {
                errors.increment();
                if (log.isDebugEnabled()) {
                    log.debug("A simulated reading was not stored: {}", failure != null ? failure.toString() : "refused");
                }
            }
        });
    }

    private CompletableFuture<Boolean> postHttp(URI uri, String reading) {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(reading))
                .build();
        return httpClient.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .thenApply(response -> response.statusCode() == 200);
    }

    private String reading() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        double temperature = random.nextDouble() < settings.getAlarmShare()
                ? threshold + 0.5 + random.nextDouble() * 10
                : threshold - 15 + random.nextDouble() * 14.5;
        double humidity = 30 + random.nextDouble() * 40;
        return String.format(Locale.ROOT, "{\"temperature\":%.1f,\"humidity\":%.1f}", temperature, humidity);
    }

    private void logStatus() {
        StatusSnapshot now = snapshot();
        log.info(now.describe(lastStatus, devices.size(), alarmService.countActive()));
        lastStatus = now;
    }

    private StatusSnapshot snapshot() {
        return new StatusSnapshot(System.nanoTime(), sent.sum(), errors.sum(), skipped.sum(), stats.getProcessed(),
                actorSystemContext.getIntrospection().map(TbActorSystemIntrospection::getActorCount).orElse(0),
                actorSystemContext.getIntrospection().map(TbActorSystemIntrospection::getPendingMessages).orElse(0L));
    }

    /** @return readings answered 200 so far */
    public long getSent() {
        return sent.sum();
    }

    @Override
    public void stop() {
        running = false;
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        if (mqttClients != null) {
            mqttClients.close();
        }
        log.info("Simulator stopped after {} readings ({} errors, {} skipped)", sent.sum(), errors.sum(), skipped.sum());
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
