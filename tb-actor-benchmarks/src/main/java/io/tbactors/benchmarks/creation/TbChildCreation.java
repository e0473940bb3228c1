package io.tbactors.benchmarks.creation;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.benchmarks.support.Runtimes;
import io.tbactors.api.TbActorCreator;
import io.tbactors.core.DefaultTbActorSystem;
import java.time.Duration;

/** A parent of ours creating its children the ThingsBoard way, with {@code getOrCreateChildActor}. */
final class TbChildCreation extends ChildCreation {

    private static final Duration STOP_WAIT = Duration.ofSeconds(60);

    private final DefaultTbActorSystem system = Runtimes.newTbSystem();
    private TbActorId parentId;
    private TbActorRef parent;

    TbChildCreation(String[] names) {
        super(names);
    }

    @Override
    void createParent(String name) {
        parentId = new TbStringActorId(name);
        parent = system.createRootActor(Runtimes.DISPATCHER, TbActorCreator.of(parentId, () -> new Parent(events)));
    }

    @Override
    void tellParent(Spawn spawn) {
        parent.tell(spawn);
    }

    @Override
    void stopParent() {
        system.stop(parentId);
    }

    /** Ours unregisters a child after its {@code destroy} returned: wait until the registry holds no actor again. */
    @Override
    void awaitStopFinished() {
        long deadline = System.nanoTime() + STOP_WAIT.toNanos();
        while (system.getActorCount() > 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("actors still registered after " + STOP_WAIT + ": " + system.getActorCount());
            }
            Thread.yield();
        }
    }

    /** @return actors the runtime still has registered (for the harness's own test) */
    int registeredActors() {
        return system.getActorCount();
    }

    @Override
    public void close() {
        Runtimes.stop(system);
    }

    private static final class Parent extends AbstractTbActor {
        private final ChildEvents events;

        Parent(ChildEvents events) {
            this.events = events;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (!(msg instanceof Spawn spawn)) {
                return false;
            }
            for (int i = 0; i < spawn.count(); i++) {
                TbActorId childId = new TbStringActorId(spawn.names()[i]);
                ctx.getOrCreateChildActor(childId, () -> Runtimes.DISPATCHER,
                        () -> TbActorCreator.of(childId, () -> new Child(events)), () -> true);
            }
            return true;
        }
    }

    private static final class Child extends AbstractTbActor {
        private final ChildEvents events;

        Child(ChildEvents events) {
            this.events = events;
        }

        @Override
        public void init(TbActorCtx ctx) throws TbActorException {
            super.init(ctx);
            events.started().countDown();
        }

        @Override
        public boolean process(TbActorMsg msg) {
            return true;
        }

        @Override
        public void destroy(TbActorStopReason stopReason, Throwable cause) {
            events.stopped().countDown();
        }
    }
}
