package io.tbactors.kafka.it;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbEntityActorId;
import io.tbactors.kafka.TbEntityMsg;
import io.tbactors.kafka.TestRoots;
import io.tbactors.kafka.TbPartitionChangeMsg;
import io.tbactors.spring.TbRootActorCreator;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The smallest application on the cluster: a root actor that creates one actor per device and stops the devices of
 * partitions it gave up, and device actors that store their readings in the shared {@link ReadingStore}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ClusterTestApp {

    /** Entity type of the test's devices. */
    public static final String DEVICE = "DEVICE";

    @Bean
    TbRootActorCreator rootActor(ReadingStore store, @Value("${test.node}") String node,
                                 @Value("${test.processing-delay:0ms}") Duration processingDelay) {
        return TestRoots.root(() -> new RootActor(store, node, processingDelay));
    }

    static final class RootActor extends AbstractTbActor {

        private final ReadingStore store;
        private final String node;
        private final Duration processingDelay;

        RootActor(ReadingStore store, String node, Duration processingDelay) {
            this.store = store;
            this.node = node;
            this.processingDelay = processingDelay;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof TbEntityMsg entityMsg) {
                if (entityMsg.discardIfObsolete()) {
                    return true;
                }
                TbActorRef device = ctx.getOrCreateChildActor(entityMsg.getActorId(), () -> "default",
                        () -> new DeviceActorCreator(entityMsg.getActorId(), store, node, processingDelay));
                device.tell(entityMsg);
                return true;
            }
            if (msg instanceof TbPartitionChangeMsg change) {
                List<TbActorId> notOwned = ctx.filterChildren(change::isNotOwned);
                notOwned.forEach(ctx::stop);
                store.stopped(node, notOwned);
                return true;
            }
            return false;
        }
    }

    record DeviceActorCreator(TbEntityActorId id, ReadingStore store, String node, Duration processingDelay)
            implements TbActorCreator {

        @Override
        public TbActorId createActorId() {
            return id;
        }

        @Override
        public TbActor createActor() {
            return new DeviceActor(id, store, node, processingDelay);
        }
    }

    static final class DeviceActor extends AbstractTbActor {

        private final TbEntityActorId id;
        private final ReadingStore store;
        private final String node;
        private final Duration processingDelay;

        DeviceActor(TbEntityActorId id, ReadingStore store, String node, Duration processingDelay) {
            this.id = id;
            this.store = store;
            this.node = node;
            this.processingDelay = processingDelay;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof TbEntityMsg entityMsg && entityMsg.getPayload() instanceof Reading reading) {
                if (entityMsg.discardIfObsolete()) {
                    return true;
                }
                simulateSlowWork();
                store.store(node, id.getEntityId(), reading.seq());
                entityMsg.onProcessed();
                return true;
            }
            return false;
        }

        private void simulateSlowWork() {
            if (!processingDelay.isZero()) {
                try {
                    Thread.sleep(processingDelay.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
