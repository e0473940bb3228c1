package io.tbactors.spring.actuate;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbEntityActorId;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.spring.ActorSystemContext;
import io.tbactors.spring.TbRootActorCreator;
import io.tbactors.testkit.TbActorCreators;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.springframework.context.support.StaticApplicationContext;

/**
 * An actor system with one actor whose first message blocks until released, so tests can build a backlog of a
 * known size without timing.
 */
final class BlockingActorSystem implements AutoCloseable {

    static final TbActorId BLOCKED = new TbEntityActorId("DEVICE", UUID.fromString("00000000-0000-0000-0000-000000000001"));
    static final TbActorId IDLE = new TbStringActorId("tenant/acme");

    final DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder().build());
    final ActorSystemContext context = new ActorSystemContext(system, new StaticApplicationContext(), (TbRootActorCreator) null);
    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch blocking = new CountDownLatch(1);
    final TbActorRef blocked;

    BlockingActorSystem() {
        system.createDispatcher("main", DispatcherKind.FORK_JOIN, 2);
        system.createDispatcher("side", DispatcherKind.SINGLE, 1);
        blocked = system.createRootActor("main", TbActorCreators.of(BLOCKED, BlockingActor::new));
        system.createRootActor("side", TbActorCreators.of(IDLE, BlockingActor::new));
    }

    /** Blocks the actor in its first message and queues {@code waiting} more behind it. */
    void buildBacklog(int waiting) throws InterruptedException {
        blocked.tell(new TbActorMsg() { });
        blocking.await();
        for (int i = 0; i < waiting; i++) {
            blocked.tell(new TbActorMsg() { });
        }
    }

    @Override
    public void close() {
        release.countDown();
        system.stop(Duration.ofSeconds(5));
    }

    private final class BlockingActor extends AbstractTbActor {
        @Override
        public boolean process(TbActorMsg msg) {
            blocking.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return true;
        }
    }
}
