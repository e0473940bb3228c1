package io.tbactors.benchmarks.creation;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.Runtimes;
import io.tbactors.benchmarks.support.TbCreator;
import io.tbactors.core.DefaultTbActorSystem;

/** A parent of ours creating its children the ThingsBoard way, with {@code getOrCreateChildActor}. */
final class TbChildCreation implements ChildCreation {

    private final DefaultTbActorSystem system = Runtimes.newTbSystem();
    private final Completion started = new Completion();
    private final Completion stopped = new Completion();
    private final String[] names;
    private int generation;
    private int lastCount;
    private TbActorId parentId;
    private TbActorRef parent;

    TbChildCreation(String[] names) {
        this.names = names;
    }

    @Override
    public void prepare() {
        parentId = new TbStringActorId("parent-" + generation++);
        parent = system.createRootActor(Runtimes.DISPATCHER, new TbCreator(parentId, () -> new Parent(started, stopped)));
    }

    @Override
    public void createChildren(int count) {
        lastCount = count;
        started.arm(count);
        parent.tell(new Spawn(names, count));
        started.await();
    }

    @Override
    public void cleanUp() {
        stopped.arm(lastCount);
        system.stop(parentId);
        stopped.await();
    }

    @Override
    public void close() {
        Runtimes.stop(system);
    }

    private static final class Parent extends AbstractTbActor {
        private final Completion started;
        private final Completion stopped;

        Parent(Completion started, Completion stopped) {
            this.started = started;
            this.stopped = stopped;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (!(msg instanceof Spawn spawn)) {
                return false;
            }
            for (int i = 0; i < spawn.count(); i++) {
                TbActorId childId = new TbStringActorId(spawn.names()[i]);
                ctx.getOrCreateChildActor(childId, () -> Runtimes.DISPATCHER,
                        () -> new TbCreator(childId, () -> new Child(started, stopped)), () -> true);
            }
            return true;
        }
    }

    private static final class Child extends AbstractTbActor {
        private final Completion started;
        private final Completion stopped;

        Child(Completion started, Completion stopped) {
            this.started = started;
            this.stopped = stopped;
        }

        @Override
        public void init(TbActorCtx ctx) throws TbActorException {
            super.init(ctx);
            started.countDown();
        }

        @Override
        public boolean process(TbActorMsg msg) {
            return true;
        }

        @Override
        public void destroy(TbActorStopReason stopReason, Throwable cause) {
            stopped.countDown();
        }
    }
}
