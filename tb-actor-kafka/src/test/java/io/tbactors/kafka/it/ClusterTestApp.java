package io.tbactors.kafka.it;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbEntityActorId;
import io.tbactors.api.TbStringActorId;
import io.tbactors.kafka.TbBroadcastListener;
import io.tbactors.kafka.TbEntityMsg;
import io.tbactors.kafka.TbPartitionChangeMsg;
import io.tbactors.spring.TbRootActorCreator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The smallest application on the cluster: a root actor that creates one actor per device and stops the devices of
 * partitions it gave up, and device actors that store their readings in the shared {@link ReadingStore}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ClusterTestApp {

    /** Entity type of the test's devices. */
    public static final String DEVICE = "DEVICE";

    /**
     * What a device actor does besides storing, from the {@code test.*} properties.
     *
     * @param node the node's name
     * @param processingDelay how long each reading takes
     * @param dispatcher the dispatcher of the device actors
     * @param failingSeq readings with this sequence number always fail ({@code onFailure}); 0: none
     * @param flakySeq readings with this sequence number fail their first {@code flakyFailures} attempts
     * @param flakyFailures see {@code flakySeq}
     * @param hangingSeq readings with this sequence number are never completed; 0: none
     * @param laterSeq readings with this sequence number are stored asynchronously, when the test finishes them
     * @param writeDelay how long each reading waits between its last ownership check and its write: a window for a
     *     pause of the process to fall into
     * @param supersededSeq readings with this sequence number are refused by the store as written by a later owner; 0: none
     * @param holdFile once this file exists, the next reading past its ownership check creates {@code <holdFile>.held}
     *     and waits {@code hold} before its write: a window a test can stop the process in for certain; null: none
     * @param hold see {@code holdFile}
     */
    record Behaviour(String node, Duration processingDelay, String dispatcher, int failingSeq, int flakySeq, int flakyFailures,
                     int hangingSeq, int laterSeq, Duration writeDelay, int supersededSeq, Path holdFile, Duration hold) {

        /** The suffix of the file a held reading creates beside {@code holdFile}. */
        static final String HELD = ".held";
    }

    @Bean
    Behaviour behaviour(Environment env) {
        return new Behaviour(env.getRequiredProperty("test.node"), duration(env, "test.processing-delay"),
                env.getProperty("test.device-dispatcher", "default"), env.getProperty("test.failing-seq", Integer.class, 0),
                env.getProperty("test.flaky-seq", Integer.class, 0), env.getProperty("test.flaky-failures", Integer.class, 0),
                env.getProperty("test.hanging-seq", Integer.class, 0), env.getProperty("test.later-seq", Integer.class, 0),
                duration(env, "test.write-delay"), env.getProperty("test.superseded-seq", Integer.class, 0),
                env.containsProperty("test.hold-file") ? Path.of(env.getRequiredProperty("test.hold-file")) : null,
                duration(env, "test.hold"));
    }

    private static Duration duration(Environment env, String property) {
        return DurationStyle.detectAndParse(env.getProperty(property, "0ms"));
    }

    @Bean
    TbRootActorCreator rootActor(ReadingStore store, Behaviour behaviour) {
        return TbRootActorCreator.of(new TbStringActorId("root"), () -> new RootActor(store, behaviour));
    }

    @Bean
    TbBroadcastListener broadcastLog(ReadingStore store, @Value("${test.node}") String node) {
        return msg -> store.heard(node, msg);
    }

    static final class RootActor extends AbstractTbActor {

        private final ReadingStore store;
        private final Behaviour behaviour;

        RootActor(ReadingStore store, Behaviour behaviour) {
            this.store = store;
            this.behaviour = behaviour;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof TbEntityMsg entityMsg) {
                if (entityMsg.discardIfObsolete()) {
                    return true;
                }
                TbActorRef device = ctx.getOrCreateChildActor(entityMsg.getActorId(), behaviour::dispatcher,
                        () -> new DeviceActorCreator(entityMsg.getActorId(), store, behaviour));
                device.tell(entityMsg);
                return true;
            }
            if (msg instanceof TbPartitionChangeMsg change) {
                List<TbActorId> notOwned = ctx.filterChildren(change::isNotOwned);
                notOwned.forEach(ctx::stop);
                store.stopped(behaviour.node(), notOwned);
                return true;
            }
            return false;
        }
    }

    record DeviceActorCreator(TbEntityActorId id, ReadingStore store, Behaviour behaviour) implements TbActorCreator {

        @Override
        public TbActorId createActorId() {
            return id;
        }

        @Override
        public TbActor createActor() {
            return new DeviceActor(id, store, behaviour);
        }
    }

    static final class DeviceActor extends AbstractTbActor {

        // the hold of Behaviour#holdFile is taken once per process
        private static final AtomicBoolean HELD_ONCE = new AtomicBoolean();

        private final TbEntityActorId id;
        private final ReadingStore store;
        private final Behaviour behaviour;
        private int flakyAttempts;

        DeviceActor(TbEntityActorId id, ReadingStore store, Behaviour behaviour) {
            this.id = id;
            this.store = store;
            this.behaviour = behaviour;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof TbEntityMsg entityMsg && entityMsg.getPayload() instanceof Reading reading) {
                if (entityMsg.discardIfObsolete()) {
                    return true;
                }
                sleep(behaviour.processingDelay());
                // checked again where the work has its effect: the partition may have moved while it ran
                if (entityMsg.discardIfObsolete()) {
                    return true;
                }
                sleep(behaviour.writeDelay());
                holdOnceAsked(behaviour);
                UUID device = id.getEntityId();
                int seq = reading.seq();
                long token = entityMsg.getOwnershipEpoch().getFencingToken();
                if (seq == behaviour.hangingSeq()) {
                    store.attempted(device, seq, "hung");
                } else if (seq == behaviour.supersededSeq()) {
                    store.attempted(device, seq, "superseded");
                    entityMsg.onSuperseded();
                } else if (seq == behaviour.laterSeq()) {
                    store.attempted(device, seq, "later");
                    entityMsg.completeWhen(store.storeLater(behaviour.node(), device, seq, token));
                } else if (seq == behaviour.failingSeq() || seq == behaviour.flakySeq() && flakyAttempts++ < behaviour.flakyFailures()) {
                    store.attempted(device, seq, "failed");
                    entityMsg.onFailure(new IllegalStateException("reading " + seq + " of " + device + " is broken"));
                } else {
                    store.attempted(device, seq, "stored");
                    if (store.store(behaviour.node(), device, seq, token)) {
                        entityMsg.onProcessed();
                    } else {
                        // a later owner of the partition wrote first
                        entityMsg.onSuperseded();
                    }
                }
                return true;
            }
            return false;
        }

        /** The first reading past its check once the test created the hold file says so, then waits the hold. */
        private static void holdOnceAsked(Behaviour behaviour) {
            Path file = behaviour.holdFile();
            if (file != null && Files.exists(file) && HELD_ONCE.compareAndSet(false, true)) {
                try {
                    Files.createFile(Path.of(file + Behaviour.HELD));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                sleep(behaviour.hold());
            }
        }

        private static void sleep(Duration delay) {
            if (!delay.isZero()) {
                try {
                    Thread.sleep(delay.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
