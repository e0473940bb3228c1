package io.tbactors.benchmarks.creation;

import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.Runtimes;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** A Pekko parent creating its children with {@code context.actorOf}. */
final class PekkoChildCreation implements ChildCreation {

    private final ActorSystem system = Runtimes.newPekkoSystem("creation");
    private final Completion started = new Completion();
    private final Completion stopped = new Completion();
    private final String[] names;
    private int generation;
    private int lastCount;
    private ActorRef parent;

    PekkoChildCreation(String[] names) {
        this.names = names;
    }

    @Override
    public void prepare() {
        Props childProps = Props.create(Child.class, () -> new Child(started, stopped));
        parent = system.actorOf(Props.create(Parent.class, () -> new Parent(childProps)), "parent-" + generation++);
    }

    @Override
    public void createChildren(int count) {
        lastCount = count;
        started.arm(count);
        parent.tell(new Spawn(names, count), ActorRef.noSender());
        started.await();
    }

    @Override
    public void cleanUp() {
        stopped.arm(lastCount);
        system.stop(parent);
        stopped.await();
    }

    @Override
    public void close() {
        Runtimes.stop(system);
    }

    private static final class Parent extends UntypedAbstractActor {
        private final Props childProps;

        Parent(Props childProps) {
            this.childProps = childProps;
        }

        @Override
        public void onReceive(Object msg) {
            if (msg instanceof Spawn spawn) {
                for (int i = 0; i < spawn.count(); i++) {
                    getContext().actorOf(childProps, spawn.names()[i]);
                }
            } else {
                unhandled(msg);
            }
        }
    }

    private static final class Child extends UntypedAbstractActor {
        private final Completion started;
        private final Completion stopped;

        Child(Completion started, Completion stopped) {
            this.started = started;
            this.stopped = stopped;
        }

        @Override
        public void preStart() {
            started.countDown();
        }

        @Override
        public void onReceive(Object msg) {
            // idle: the benchmark only creates and stops children
        }

        @Override
        public void postStop() {
            stopped.countDown();
        }
    }
}
