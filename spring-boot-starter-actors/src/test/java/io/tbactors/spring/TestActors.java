package io.tbactors.spring;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbEntityActorId;
import io.tbactors.api.TbStringActorId;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicInteger;

/** A root actor that routes each message to a device actor, and the messages of the starter's tests. */
public final class TestActors {

    public static final String DEVICE = "DEVICE";

    private TestActors() {
    }

    /** @return the id of a device's actor, printed {@code DEVICE|<uuid>} */
    public static TbActorId deviceId(String device) {
        return new TbEntityActorId(DEVICE, UUID.nameUUIDFromBytes(device.getBytes(StandardCharsets.UTF_8)));
    }

    /** @return a root actor declaration (id {@code root}) whose actor hands each message to {@code onMessage} */
    public static TbRootActorCreator rootThat(Consumer<TbActorMsg> onMessage) {
        return TbRootActorCreator.of(new TbStringActorId("root"), () -> new AbstractTbActor() {
            @Override
            public boolean process(TbActorMsg msg) {
                onMessage.accept(msg);
                return true;
            }
        });
    }

    /** Waits for the latch inside an actor, keeping the thread's interrupt for the runtime to see. */
    public static void awaitInActor(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Counts what became of a batch of messages: processed, or told why not. */
    public static final class Outcomes {
        public final AtomicInteger processed = new AtomicInteger();
        public final AtomicInteger stopped = new AtomicInteger();

        public int total() {
            return processed.get() + stopped.get();
        }
    }

    /** A message for one device; records its own fate in {@link Outcomes}. */
    public record DeviceMsg(String device, Outcomes outcomes, long workNanos) implements TbActorMsg {
        public DeviceMsg(String device, Outcomes outcomes) {
            this(device, outcomes, 0);
        }

        @Override
        public void onTbActorStopped(TbActorStopReason reason) {
            outcomes.stopped.incrementAndGet();
        }
    }

    /** Declares {@link RouterActor} as the root, optionally on a named dispatcher. */
    public static final class RouterCreator implements TbRootActorCreator {
        private final String dispatcher;
        private final String deviceDispatcher;

        public RouterCreator() {
            this(null, "default");
        }

        public RouterCreator(String dispatcher, String deviceDispatcher) {
            this.dispatcher = dispatcher;
            this.deviceDispatcher = deviceDispatcher;
        }

        @Override
        public TbActorId createActorId() {
            return new TbStringActorId("router");
        }

        @Override
        public TbActor createActor() {
            return new RouterActor(deviceDispatcher);
        }

        @Override
        public String getDispatcherName() {
            return dispatcher;
        }
    }

    /** Routes each {@link DeviceMsg} to a child per device, created on first use. */
    public static final class RouterActor extends AbstractTbActor {
        private final String deviceDispatcher;

        RouterActor(String deviceDispatcher) {
            this.deviceDispatcher = deviceDispatcher;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof DeviceMsg deviceMsg) {
                TbActorId id = deviceId(deviceMsg.device());
                ctx.getOrCreateChildActor(id, () -> deviceDispatcher, () -> new io.tbactors.api.TbActorCreator() {
                    @Override
                    public TbActorId createActorId() {
                        return id;
                    }

                    @Override
                    public TbActor createActor() {
                        return new DeviceActor();
                    }
                }).tell(msg);
                return true;
            }
            return false;
        }
    }

    /** Marks each message processed, after an optional stretch of work. */
    public static final class DeviceActor extends AbstractTbActor {
        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof DeviceMsg deviceMsg) {
                long until = System.nanoTime() + deviceMsg.workNanos();
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                deviceMsg.outcomes().processed.incrementAndGet();
                return true;
            }
            return false;
        }
    }
}
