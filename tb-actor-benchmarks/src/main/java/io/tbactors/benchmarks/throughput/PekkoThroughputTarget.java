package io.tbactors.benchmarks.throughput;

import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.Runtimes;
import io.tbactors.benchmarks.support.Tick;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** Counting actors on Pekko classic, told from outside any actor as a transport thread would. */
final class PekkoThroughputTarget implements ThroughputTarget {

    private final ActorSystem system = Runtimes.newPekkoSystem("throughput");
    private final ActorRef[] refs;

    PekkoThroughputTarget(Shape shape, Completion completion) {
        Props props = Props.create(CountingActor.class, () -> new CountingActor(new RoundCounter(shape.messagesPerActor(), completion)));
        refs = new ActorRef[shape.actors()];
        for (int i = 0; i < refs.length; i++) {
            refs[i] = system.actorOf(props, "counter-" + i);
        }
    }

    @Override
    public void tell(int actor) {
        refs[actor].tell(Tick.INSTANCE, ActorRef.noSender());
    }

    @Override
    public void close() {
        Runtimes.stop(system);
    }

    /** The lightest classic actor: an untyped receive, no behaviour matching. */
    private static final class CountingActor extends UntypedAbstractActor {
        private final RoundCounter counter;

        CountingActor(RoundCounter counter) {
            this.counter = counter;
        }

        @Override
        public void onReceive(Object message) {
            counter.receive();
        }
    }
}
