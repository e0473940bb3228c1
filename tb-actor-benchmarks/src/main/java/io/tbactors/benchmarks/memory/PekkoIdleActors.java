package io.tbactors.benchmarks.memory;

import io.tbactors.benchmarks.support.Runtimes;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** Idle Pekko classic actors, children of the user guardian, each named like our ids. */
final class PekkoIdleActors implements IdleActors {

    private static final Props IDLE = Props.create(IdleActor.class, IdleActor::new);

    private final ActorSystem system = Runtimes.newPekkoSystem("memory");

    @Override
    public void create(int count) {
        STARTED.arm(count);
        for (int i = 0; i < count; i++) {
            system.actorOf(IDLE, "device-" + i);
        }
        STARTED.await();
    }

    @Override
    public void close() {
        Runtimes.stop(system);
    }

    /** The idle actor: nothing but what the base class keeps. */
    private static final class IdleActor extends UntypedAbstractActor {
        @Override
        public void preStart() {
            STARTED.countDown();
        }

        @Override
        public void onReceive(Object msg) {
            // idle
        }
    }
}
