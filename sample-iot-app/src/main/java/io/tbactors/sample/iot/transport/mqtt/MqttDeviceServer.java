package io.tbactors.sample.iot.transport.mqtt;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.mqtt.MqttDecoder;
import io.netty.handler.codec.mqtt.MqttEncoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tbactors.core.dispatch.NamedThreadFactory;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.stats.IotStats;
import io.tbactors.sample.iot.ingestion.DeviceIngestion;
import io.tbactors.sample.iot.ingestion.DeviceRequests;
import io.tbactors.sample.iot.ingestion.DeviceSessionLink;
import io.tbactors.sample.iot.ingestion.DevicePayloadParser;
import io.tbactors.spring.TbActorsLifecycle;
import lombok.Getter;
import lombok.extern.slf4j.Slf4j;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.stereotype.Component;

/**
 * ThingsBoard's MQTT device API (MQTT 3.1, 3.1.1 and 5) on Netty's MQTT codec: a device connects with its access
 * token as user name and publishes to {@code v1/devices/me/telemetry} or {@code v1/devices/me/attributes} in the HTTP
 * API's shapes. A QoS 1 message is acknowledged only once stored, through the HTTP API's own path
 * ({@link DeviceIngestion}). One connection per token: a second CONNECT with it closes the first.
 *
 * <p>Starts after the actors and stops before them ({@link #PHASE}, the web server's graceful-shutdown phase): a stop
 * closes the listening socket, stops reading every connection, waits up to {@code sample.mqtt.stop-timeout} for what
 * is in flight to be stored and acknowledged, then closes the connections.
 */
@Slf4j
@Component
@ConditionalOnBooleanProperty(name = "sample.mqtt.enabled", matchIfMissing = true)
public class MqttDeviceServer implements SmartLifecycle {

    /** Between the actor system's ({@link TbActorsLifecycle#PHASE}) and the simulator's: stops before the actors. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1024;

    /** Room in a packet for the fixed and variable headers around a payload of the largest accepted size. */
    private static final int HEADER_ALLOWANCE = 1024;
    private static final int MAX_CLIENT_ID_LENGTH = 256;

    @Getter
    private final SampleProperties.Mqtt settings;
    @Getter
    private final DevicePayloadParser parser;
    @Getter
    private final DeviceIngestion ingestion;
    @Getter
    private final IotStats stats;
    @Getter
    private final MqttMetrics metrics;
    @Getter
    private final DeviceSessionLink sessionLink;
    @Getter
    private final DeviceRequests requests;
    @Getter
    private final int maxPayloadBytes;
    private final DeviceService deviceService;
    private final ConfigurableEnvironment environment;
    private final Map<UUID, MqttDeviceSession> sessions = new ConcurrentHashMap<>();
    private final ChannelGroup channels = new DefaultChannelGroup("mqtt", GlobalEventExecutor.INSTANCE);
    private EventLoopGroup acceptors;
    private EventLoopGroup workers;
    private ExecutorService authenticators;
    private Channel serverChannel;
    private volatile int port = -1;
    private volatile boolean running;

    /**
     * @param properties {@code sample.mqtt.*} and the device API's payload limit
     * @param parser reads payloads as the HTTP API does
     * @param ingestion takes readings into the rule engine as the HTTP API does
     * @param deviceService finds devices by access token
     * @param stats the application's device message counters
     * @param metrics the MQTT meters
     * @param sessionLink registers the sessions with their device actors (RPC) and takes the devices' answers
     * @param requests answers attribute requests and client-side RPC
     * @param environment where the bound port is published as {@code local.mqtt.port}
     */
    public MqttDeviceServer(SampleProperties properties, DevicePayloadParser parser, DeviceIngestion ingestion,
                            DeviceService deviceService, IotStats stats, MqttMetrics metrics,
                            DeviceSessionLink sessionLink, DeviceRequests requests, ConfigurableEnvironment environment) {
        this.settings = properties.getMqtt();
        this.maxPayloadBytes = (int) Math.min(Integer.MAX_VALUE - HEADER_ALLOWANCE,
                properties.getDeviceApi().getMaxPayloadSize().toBytes());
        this.parser = parser;
        this.ingestion = ingestion;
        this.deviceService = deviceService;
        this.stats = stats;
        this.metrics = metrics;
        this.sessionLink = sessionLink;
        this.requests = requests;
        this.environment = environment;
    }

    @Override
    public void start() {
        acceptors = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("mqtt-accept"), NioIoHandler.newFactory());
        workers = new MultiThreadIoEventLoopGroup(settings.getIoThreads(), new DefaultThreadFactory("mqtt-io"),
                NioIoHandler.newFactory());
        authenticators = Executors.newFixedThreadPool(2, new NamedThreadFactory("mqtt-auth"));
        ServerBootstrap bootstrap = new ServerBootstrap().group(acceptors, workers)
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channels.add(channel);
                        channel.pipeline()
                                .addLast("decoder", new MqttDecoder(maxPayloadBytes + HEADER_ALLOWANCE, MAX_CLIENT_ID_LENGTH))
                                .addLast("encoder", MqttEncoder.INSTANCE)
                                .addLast("session", new MqttDeviceSession(MqttDeviceServer.this));
                    }
                });
        try {
            serverChannel = bootstrap.bind(settings.getBindAddress(), settings.getPort()).syncUninterruptibly().channel();
        } catch (Exception bindFailed) {
            // Netty rethrows the bind's BindException as it is, though it is checked
            shutDownThreads();
            throw new IllegalStateException("The MQTT device API cannot listen on " + settings.getBindAddress() + ":"
                    + settings.getPort() + " (" + bindFailed + "); set sample.mqtt.port to a free port (0 picks one), or "
                    + "sample.mqtt.enabled=false to turn the MQTT device API off", bindFailed);
        }
        port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
        environment.getPropertySources().addFirst(new MapPropertySource("mqtt.ports", Map.of("local.mqtt.port", port)));
        running = true;
        log.info("MQTT device API listening on port {}: CONNECT with a device's access token as user name, publish to {} "
                + "or {}", port, MqttDeviceSession.TELEMETRY_TOPIC, MqttDeviceSession.ATTRIBUTES_TOPIC);
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        serverChannel.close().syncUninterruptibly();
        List<CompletableFuture<Void>> drained = new ArrayList<>();
        for (Channel channel : channels) {
            MqttDeviceSession session = channel.pipeline().get(MqttDeviceSession.class);
            if (session != null) {
                drained.add(session.beginStop());
            }
        }
        long timeoutMs = settings.getStopTimeout().toMillis();
        try {
            CompletableFuture.allOf(drained.toArray(CompletableFuture[]::new)).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException late) {
            log.warn("MQTT device API: messages still in flight after {} ms (sample.mqtt.stop-timeout); closing the "
                    + "connections anyway (those messages were not acknowledged)", timeoutMs);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException impossible) {
            log.warn("MQTT device API: draining failed: {}", impossible.toString());
        }
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        shutDownThreads();
        log.info("MQTT device API stopped: {} message(s) stored, {} connection(s) were open", metrics.getStored(),
                drained.size());
    }

    @Override
    public void stop(Runnable callback) {
        // drains beside the web server's graceful shutdown, which shares the phase
        Thread stopper = new Thread(() -> {
            try {
                stop();
            } finally {
                callback.run();
            }
        }, "mqtt-stop");
        stopper.start();
    }

    private void shutDownThreads() {
        if (authenticators != null) {
            authenticators.shutdownNow();
        }
        if (workers != null) {
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (acceptors != null) {
            acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** @return the port it listens on (the chosen one when {@code sample.mqtt.port} is 0), -1 before the start */
    public int getPort() {
        return port;
    }

    CompletableFuture<Optional<Device>> authenticate(String accessToken) {
        // the token cache may miss and ask the database: never on an event loop
        return CompletableFuture.supplyAsync(() -> deviceService.findByAccessToken(accessToken), authenticators);
    }

    void register(Device device, MqttDeviceSession session) {
        MqttDeviceSession previous = sessions.put(device.id(), session);
        if (previous != null && previous != session) {
            previous.takenOver();
        }
    }

    void unregister(Device device, MqttDeviceSession session) {
        sessions.remove(device.id(), session);
    }
}
