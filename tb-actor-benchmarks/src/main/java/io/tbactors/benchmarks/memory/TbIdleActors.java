package io.tbactors.benchmarks.memory;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbStringActorId;
import io.tbactors.benchmarks.support.Runtimes;
import io.tbactors.api.TbActorCreator;
import io.tbactors.core.DefaultTbActorSystem;

/** Idle actors of ours, children of one root actor, each with a string id. */
final class TbIdleActors implements IdleActors {

    private final DefaultTbActorSystem system = Runtimes.newTbSystem();
    private final TbActorId parentId = new TbStringActorId("tenant");

    TbIdleActors() {
        system.createRootActor(Runtimes.DISPATCHER, TbActorCreator.of(parentId, Parent::new));
    }

    @Override
    public void create(int count) {
        STARTED.arm(count);
        for (int i = 0; i < count; i++) {
            system.createChildActor(Runtimes.DISPATCHER, TbActorCreator.of(new TbStringActorId("device-" + i), IdleActor::new), parentId);
        }
        STARTED.await();
    }

    /** Tells every idle actor one message and waits until each has processed it (for {@link IdleActorsForHistogram}). */
    void tellEachOnce(int count) {
        STARTED.arm(count);
        system.broadcastToChildren(parentId, new Poke());
        STARTED.await();
    }

    @Override
    public void close() {
        Runtimes.stop(system);
    }

    private static final class Parent extends AbstractTbActor {
        @Override
        public boolean process(TbActorMsg msg) {
            return true;
        }
    }

    private record Poke() implements TbActorMsg {
    }

    /** The idle actor: nothing but what the base class keeps. */
    private static final class IdleActor extends AbstractTbActor {
        @Override
        public void init(TbActorCtx ctx) throws TbActorException {
            super.init(ctx);
            STARTED.countDown();
        }

        @Override
        public boolean process(TbActorMsg msg) {
            STARTED.countDown();
            return true;
        }
    }
}
