package io.tbactors.sample.iot.console;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import lombok.extern.slf4j.Slf4j;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.json.JsonMapper;

import io.tbactors.sample.iot.web.LogText;

/**
 * The console's live updates as server-sent events. While at least one console is connected, one thread looks at
 * devices, alarms and actors every {@code sample.console.refresh-interval} and sends each console the topics
 * ({@code devices}, {@code alarms}, {@code actors}) whose JSON changed since it last got them; a new console gets
 * all of them at once. A comment every {@link #HEARTBEAT_EVERY} looks finds consoles that went away.
 * <p>
 * It stops first of all lifecycles: open streams are completed before the web server's graceful shutdown, which
 * would otherwise wait for them until its timeout; the browser reconnects when the application is back.
 */
@Slf4j
@Component
public class ConsoleEventStream implements SmartLifecycle {

    static final long RECONNECT_MILLIS = 1000;
    static final int HEARTBEAT_EVERY = 15;

    private final ConsoleSnapshots snapshots;
    private final ConsoleProperties properties;
    private final JsonMapper jsonMapper;
    private final List<Client> clients = new CopyOnWriteArrayList<>();
    private volatile ScheduledExecutorService scheduler;
    private int ticks;

    /**
     * @param snapshots what is sent
     * @param properties the refresh interval and stream timeout
     * @param jsonMapper writes the events' data
     */
    public ConsoleEventStream(ConsoleSnapshots snapshots, ConsoleProperties properties, JsonMapper jsonMapper) {
        this.snapshots = snapshots;
        this.properties = properties;
        this.jsonMapper = jsonMapper;
    }

    /**
     * Opens a stream; its first events come at once.
     *
     * @return the stream, or one that is already completed when the application is stopping
     */
    public SseEmitter open() {
        SseEmitter emitter = new SseEmitter(properties.getStreamTimeout().toMillis());
        ScheduledExecutorService running = scheduler;
        if (running == null) {
            emitter.complete();
            return emitter;
        }
        Client client = new Client(emitter);
        emitter.onCompletion(() -> clients.remove(client));
        emitter.onTimeout(() -> clients.remove(client));
        emitter.onError(e -> clients.remove(client));
        clients.add(client);
        try {
            running.execute(this::tick);
        } catch (RejectedExecutionException e) {
            // stopped meanwhile: the browser comes back when the application does
            clients.remove(client);
            emitter.complete();
            return emitter;
        }
        if (scheduler == null) {
            // a stop that cleared the streams just before this one was added would leave it open; it must not hold the stop
            clients.remove(client);
            emitter.complete();
        }
        return emitter;
    }

    /** @return how many consoles are connected */
    public int connectedClients() {
        return clients.size();
    }

    /** One look: sends what changed to each console. Runs on the stream's own thread only. */
    void tick() {
        if (clients.isEmpty()) {
            return;
        }
        Map<String, String> topics = new LinkedHashMap<>();
        topics.put("devices", json(snapshots::devices));
        topics.put("alarms", json(snapshots::alarms));
        topics.put("actors", json(snapshots::actors));
        boolean heartbeat = ++ticks % HEARTBEAT_EVERY == 0;
        for (Client client : clients) {
            try {
                client.send(topics, heartbeat);
            } catch (IOException | IllegalStateException e) {
                // the console went away: its request is over, nobody is left to tell
                clients.remove(client);
                log.debug("Console stream closed: {}", e.toString());
            }
        }
    }

    private String json(Supplier<Object> view) {
        try {
            return jsonMapper.writeValueAsString(view.get());
        } catch (RuntimeException e) {
            // a failed read (the database closing, say) skips this look; the next one tries again
            log.warn("Console could not read its data: {}", LogText.escape(String.valueOf(e.getMessage())));
            return null;
        }
    }

    @Override
    public void start() {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "console-events");
            thread.setDaemon(true);
            return thread;
        });
        long interval = properties.getRefreshInterval().toMillis();
        executor.scheduleWithFixedDelay(this::safeTick, interval, interval, TimeUnit.MILLISECONDS);
        scheduler = executor;
    }

    private void safeTick() {
        try {
            tick();
        } catch (RuntimeException e) {
            log.warn("Console update failed: {}", LogText.escape(String.valueOf(e.getMessage())));
        }
    }

    @Override
    public void stop() {
        ScheduledExecutorService executor = scheduler;
        scheduler = null;
        if (executor != null) {
            executor.shutdownNow();
        }
        for (Client client : clients) {
            client.emitter.complete();
        }
        clients.clear();
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }

    /** Last to start, first to stop: before the web server's graceful shutdown waits for open requests. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }

    private static final class Client {

        final SseEmitter emitter;
        final Map<String, String> sent = new HashMap<>();
        boolean greeted;

        Client(SseEmitter emitter) {
            this.emitter = emitter;
        }

        void send(Map<String, String> topics, boolean heartbeat) throws IOException {
            boolean any = false;
            for (Map.Entry<String, String> topic : topics.entrySet()) {
                String data = topic.getValue();
                if (data == null || data.equals(sent.get(topic.getKey()))) {
                    continue;
                }
                SseEmitter.SseEventBuilder event = SseEmitter.event().name(topic.getKey()).data(data, MediaType.APPLICATION_JSON);
                if (!greeted) {
                    event.reconnectTime(RECONNECT_MILLIS);
                    greeted = true;
                }
                emitter.send(event);
                sent.put(topic.getKey(), data);
                any = true;
            }
            if (heartbeat && !any) {
                emitter.send(SseEmitter.event().comment("heartbeat"));
            }
        }
    }
}
