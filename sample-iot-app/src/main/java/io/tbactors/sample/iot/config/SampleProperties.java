package io.tbactors.sample.iot.config;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import lombok.Getter;
import lombok.Setter;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the sample application, under {@code sample.*}.
 */
@Getter
@Setter
@Validated
@ConfigurationProperties(prefix = "sample")
public class SampleProperties {

    /** Credentials of the management API and of the protected actuator endpoints. */
    @Valid
    private final Admin admin = new Admin();

    /** Device-facing HTTP API. */
    @Valid
    private final DeviceApi deviceApi = new DeviceApi();

    /** Device-facing MQTT API (ThingsBoard's MQTT transport). */
    @Valid
    private final Mqtt mqtt = new Mqtt();

    /** Rule engine. */
    @Valid
    private final RuleEngine ruleEngine = new RuleEngine();

    /** Built-in device simulator. */
    @Valid
    private final Simulator simulator = new Simulator();

    /** Write-behind queues of the telemetry and attribute tables. */
    @Valid
    private final Storage storage = new Storage();

    /** Server-side RPC to devices (ThingsBoard's {@code /api/rpc/oneway} and {@code /api/rpc/twoway}). */
    @Valid
    private final Rpc rpc = new Rpc();

    /** Management credentials. */
    @Getter
    @Setter
    public static class Admin {

        /** User name for HTTP basic authentication of the management API. */
        @NotBlank
        private String username = "admin";

        /**
         * Password for HTTP basic authentication of the management API. When unset, a random one is generated at
         * each start and logged once (WARN), so no well-known password ever works.
         */
        private String password;
    }

    /** Device API settings. */
    @Getter
    @Setter
    public static class DeviceApi {

        /** Largest accepted request body; larger ones get 413 (ThingsBoard's MQTT payload limit by default). */
        @NotNull
        private DataSize maxPayloadSize = DataSize.ofKilobytes(64);

        /**
         * Longest wait for the root rule chain to finish with a request's readings (stored) before the request gets
         * 503; the readings may still be stored after it.
         */
        @NotNull
        private Duration replyTimeout = Duration.ofSeconds(30);

        /**
         * Most values (key-value pairs of readings: what costs memory) of one device in flight, accepted and not yet
         * through the root rule chain; a request that would pass it gets 429 (MQTT: waits), one with more values than
         * this gets 413 (MQTT: the connection is closed).
         */
        @Min(value = 1, message = "sample.device-api.max-in-flight-per-device must be at least 1 (values in flight)")
        private int maxInFlightPerDevice = 10_000;

        /**
         * Most values of one tenant's devices in flight; a request that would pass it gets 429 (MQTT: waits). The
         * default keeps a 256 MB heap alive under any mix of wide and narrow readings.
         */
        @Min(value = 1, message = "sample.device-api.max-in-flight-per-tenant must be at least 1 (values in flight)")
        private int maxInFlightPerTenant = 16_000;

        /**
         * Longest time for a device API request's body to arrive once its headers have; a slower one gets 408. The
         * body is read without holding a request thread, so slow clients cannot starve the others. Keep it below
         * {@code server.tomcat.connection-timeout}, which otherwise ends the read first.
         */
        @NotNull
        private Duration bodyReadTimeout = Duration.ofSeconds(5);

        /** Furthest a reading's {@code ts} may be ahead of the server's clock; later ones get 400. */
        @NotNull
        private Duration maxTsAhead = Duration.ofDays(1);

        /** Oldest a reading's {@code ts} may be, before the server's clock; older ones get 400. No limit when unset. */
        private Duration maxTsAge;

        /**
         * Most bytes of HTTP device API bodies parsed at once; a body that finds this many being parsed gets 503 with
         * {@code Retry-After}, unparsed (one body is always parsed when no other is). A parsed body takes several times
         * its size in heap, and each parse a request thread's CPU, so this bounds both under many connections posting
         * large bodies. MQTT parses on its few event-loop threads and needs no such bound.
         */
        @NotNull(message = "sample.device-api.max-parsing must be set, e.g. 1MB")
        private DataSize maxParsing = DataSize.ofMegabytes(1);

        /**
         * Most HTTP long polls ({@code GET /api/v1/{token}/rpc}, {@code .../attributes/updates}) waiting at once; past
         * it a poll gets 429 with {@code Retry-After}. A waiting poll holds a connection and a few hundred bytes, no
         * thread.
         */
        @Min(value = 1, message = "sample.device-api.max-long-polls must be at least 1")
        private int maxLongPolls = 1_000;

        /** How long a long poll waits when it names no {@code timeout} (ThingsBoard's default). */
        @NotNull
        private Duration longPollDefaultTimeout = Duration.ofSeconds(10);

        /** Longest {@code timeout} a long poll may name; a longer one gets 400. */
        @NotNull
        private Duration longPollMaxTimeout = Duration.ofMinutes(5);

        /**
         * Longest an HTTP request that finds its device or its tenant without room in flight is held, waiting for
         * room, before it gets 429; 0 answers 429 at once. Held requests of a tenant go on oldest first as room comes
         * back; each keeps its body and no thread. A few held requests keep the storage busy between bodies that
         * would otherwise wait for their clients' next try after {@code Retry-After}.
         */
        @NotNull(message = "sample.device-api.hold-when-full must be set, e.g. 1s (0 holds none)")
        private Duration holdWhenFull = Duration.ofSeconds(1);

        /**
         * Most HTTP requests of one tenant held for room at once (see {@code hold-when-full}); past it a request gets
         * 429 at once. 0 holds none.
         */
        @Min(value = 0, message = "sample.device-api.max-held-requests-per-tenant must be at least 0 (0 holds none)")
        private int maxHeldRequestsPerTenant = 4;

        /** How long health reports {@code OVERLOADED} after the device API last answered 429. */
        @NotNull
        private Duration overloadHealthWindow = Duration.ofSeconds(10);

        /** @return whether a body of the largest accepted size can be parsed */
        @AssertTrue(message = "sample.device-api.max-parsing must be at least sample.device-api.max-payload-size")
        public boolean isParsingBoundAtLeastPayloadSize() {
            return maxParsing == null || maxPayloadSize == null || maxParsing.toBytes() >= maxPayloadSize.toBytes();
        }

        /**
         * @return whether a device's bound fits in its tenant's, without which a device could be refused forever
         */
        @AssertTrue(message = "sample.device-api.max-in-flight-per-tenant must be at least "
                + "sample.device-api.max-in-flight-per-device")
        public boolean isTenantBoundAtLeastDeviceBound() {
            return maxInFlightPerTenant >= maxInFlightPerDevice;
        }

        /** @return whether the hold is not negative */
        @AssertTrue(message = "sample.device-api.hold-when-full must not be negative (0 holds none)")
        public boolean isHoldWhenFullNotNegative() {
            return holdWhenFull == null || !holdWhenFull.isNegative();
        }
    }

    /**
     * MQTT device API settings. Payloads share the device API's limits ({@code sample.device-api.*}): the size limit,
     * the in-flight bounds and the accepted reading times.
     */
    @Getter
    @Setter
    public static class Mqtt {

        /** Whether the MQTT device API listens ({@code sample.mqtt.port}). */
        private boolean enabled = true;

        /** TCP port of the MQTT device API; 0 picks a free one (its number is in {@code local.mqtt.port}). */
        @Min(value = 0, message = "sample.mqtt.port must be between 0 (a free port) and 65535")
        @Max(value = 65535, message = "sample.mqtt.port must be between 0 (a free port) and 65535")
        private int port = 1883;

        /** Address to listen on; by default every interface. */
        @NotBlank(message = "sample.mqtt.bind-address must be an address of this machine, e.g. 0.0.0.0 or 127.0.0.1")
        private String bindAddress = "0.0.0.0";

        /**
         * Most messages of one connection taken into the rule engine and not yet stored; at this many the server stops
         * reading the connection until one is stored (TCP back-pressure). Keep it below the device dispatcher's
         * {@code mailbox-bound}.
         */
        @Min(value = 1, message = "sample.mqtt.max-in-flight-per-connection must be between 1 and 65535")
        @Max(value = 65535, message = "sample.mqtt.max-in-flight-per-connection must be between 1 and 65535")
        private int maxInFlightPerConnection = 256;

        /** Longest time from a connection's opening to its CONNECT packet; a slower one is closed. */
        @NotNull(message = "sample.mqtt.connect-timeout must be set, e.g. 10s")
        private Duration connectTimeout = Duration.ofSeconds(10);

        /** Longest time a stop waits for the messages in flight to be stored and acknowledged before closing. */
        @NotNull(message = "sample.mqtt.stop-timeout must be set, e.g. 20s")
        private Duration stopTimeout = Duration.ofSeconds(20);

        /** Threads that read and write the connections. */
        @Min(value = 1, message = "sample.mqtt.io-threads must be between 1 and 256")
        @Max(value = 256, message = "sample.mqtt.io-threads must be between 1 and 256")
        private int ioThreads = 2;
    }

    /** Rule engine settings. */
    @Getter
    @Setter
    public static class RuleEngine {

        /** Temperature above which the default root rule chain raises an alarm; used when that chain is first created. */
        private double temperatureThreshold = 30.0;

        /** Largest rule chain a {@code PUT} accepts; larger ones get 413. */
        @NotNull
        private DataSize maxChainSize = DataSize.ofKilobytes(256);
    }

    /** Simulator settings. */
    @Getter
    @Setter
    public static class Simulator {

        /** Whether the simulator posts telemetry for simulated devices through the device API. */
        private boolean enabled = false;

        /**
         * Device API the simulated devices use: {@code http} (a POST per reading) or {@code mqtt} (one connection per
         * device, a QoS 1 message per reading; needs {@code sample.mqtt.enabled}).
         */
        @NotNull
        private Transport transport = Transport.HTTP;

        /** Number of simulated devices (created on first start, reused afterwards). */
        @Min(1)
        private int devices = 10;

        /** Time between two readings of one device. */
        @NotNull
        private Duration interval = Duration.ofSeconds(1);

        /** Share of readings above the alarm threshold, from 0 to 1. */
        @DecimalMin("0.0")
        @DecimalMax("1.0")
        private double alarmShare = 0.05;

        /** Time between two status lines in the log. */
        @NotNull
        private Duration statusInterval = Duration.ofSeconds(5);

        /** Most requests in flight at once; readings due while that many are pending are skipped and counted. */
        @Min(1)
        private int maxInFlight = 256;
    }

    /** Device API of the simulator. */
    public enum Transport {
        /** ThingsBoard's HTTP device API. */
        HTTP,
        /** ThingsBoard's MQTT device API, QoS 1. */
        MQTT
    }

    /**
     * The write-behind queues of the key-value tables: time series (history {@code ts_kv} and latest values
     * {@code ts_kv_latest}, written by the same batch) and attributes ({@code attribute_kv}), each written in JDBC
     * batches, one transaction a batch. A save completes when its batch is committed.
     */
    @Getter
    @Setter
    public static class Storage {

        /** Most rows in one batch (one JDBC batch, one transaction). */
        @Min(1)
        private int batchSize = 1000;

        /** Longest time a row waits for its batch to fill; a full batch is written at once. */
        @NotNull
        private Duration maxDelay = Duration.ofMillis(1);

        /** Most rows waiting in one queue. */
        @Min(1)
        private int queueCapacity = 100_000;

        /**
         * Write queues of time series (history and latest values), each with its own writer thread and connection; a
         * device's rows always go to the same one (by its id), so they are written in order.
         */
        @Min(1)
        @Max(16)
        private int historyWriters = 1;

        /** Longest time a save waits for room in a full queue before it fails (the rule node's Failure). */
        @NotNull
        private Duration offerTimeout = Duration.ofSeconds(1);

        /** Longest time a stop waits for one queue to write what is queued. */
        @NotNull
        private Duration stopTimeout = Duration.ofSeconds(30);
    }

    /** Server-side RPC settings. */
    @Getter
    @Setter
    public static class Rpc {

        /** Time a request waits for its answer when its body names no {@code timeout} (ThingsBoard's default). */
        @NotNull
        private Duration defaultTimeout = Duration.ofSeconds(10);

        /** Longest {@code timeout} a request may ask for; a longer one gets 400. */
        @NotNull
        private Duration maxTimeout = Duration.ofMinutes(10);

        /**
         * Most requests a device actor keeps waiting (not yet answered or timed out); past it a request gets 429
         * with {@code Retry-After}.
         */
        @Min(1)
        private int maxPendingPerDevice = 100;

        /**
         * Cluster profile: how often a node tells the devices' owner nodes again which of its sessions subscribe to RPC
         * and attribute updates; an owner forgets a session of another node not heard of for three of these (that node
         * may have gone away).
         */
        @NotNull
        private Duration sessionRefresh = Duration.ofSeconds(5);

        /**
         * Time a device's own RPC request (client-side RPC) waits for the rule chain's answer; then it ends: HTTP
         * gets 408, MQTT nothing. The device actor keeps at most {@code maxPendingPerDevice} such requests waiting.
         */
        @NotNull
        private Duration clientSideTimeout = Duration.ofSeconds(60);
    }
}
