package io.tbactors.benchmarks.creation;

import io.tbactors.benchmarks.support.Runtimes;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** A Pekko parent creating its children with {@code context.actorOf}. */
final class PekkoChildCreation extends ChildCreation {

    private final ActorSystem system = Runtimes.newPekkoSystem("creation");
    private final Props childProps = Props.create(Child.class, () -> new Child(events));
    private ActorRef parent;

    PekkoChildCreation(String[] names) {
        super(names);
    }

    @Override
    void createParent(String name) {
        parent = system.actorOf(Props.create(Parent.class, () -> new Parent(childProps)), name);
    }

    @Override
    void tellParent(Spawn spawn) {
        parent.tell(spawn, ActorRef.noSender());
    }

    @Override
    void stopParent() {
        system.stop(parent);
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
        private final ChildEvents events;

        Child(ChildEvents events) {
            this.events = events;
        }

        @Override
        public void preStart() {
            events.started().countDown();
        }

        @Override
        public void onReceive(Object msg) {
            // idle: the benchmark only creates and stops children
        }

        @Override
        public void postStop() {
            events.stopped().countDown();
        }
    }
}
