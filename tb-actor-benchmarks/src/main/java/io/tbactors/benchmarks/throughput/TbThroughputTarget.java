package io.tbactors.benchmarks.throughput;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.Runtimes;
import io.tbactors.api.TbActorCreator;
import io.tbactors.benchmarks.support.Tick;
import io.tbactors.core.DefaultTbActorSystem;

/** Counting actors on our runtime, with the compact mailbox (the default) or the padded one. */
final class TbThroughputTarget implements ThroughputTarget {

    private final DefaultTbActorSystem system = Runtimes.newTbSystem();
    private final TbActorRef[] refs;

    TbThroughputTarget(Shape shape, Completion completion) {
        this(shape, completion, false);
    }

    TbThroughputTarget(Shape shape, Completion completion, boolean paddedMailboxes) {
        system.setPaddedMailboxes(Runtimes.DISPATCHER, paddedMailboxes);
        refs = new TbActorRef[shape.actors()];
        for (int i = 0; i < refs.length; i++) {
            refs[i] = system.createRootActor(Runtimes.DISPATCHER, TbActorCreator.of(new TbStringActorId("counter-" + i),
                    () -> new CountingActor(new RoundCounter(shape.messagesPerActor(), completion))));
        }
    }

    @Override
    public void tell(int actor) {
        refs[actor].tell(Tick.INSTANCE);
    }

    @Override
    public long completedTurns() {
        return system.getDispatcher(Runtimes.DISPATCHER).orElseThrow().getCompletedTurns();
    }

    @Override
    public void close() {
        Runtimes.stop(system);
    }

    private static final class CountingActor extends AbstractTbActor {
        private final RoundCounter counter;

        CountingActor(RoundCounter counter) {
            this.counter = counter;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            counter.receive();
            return true;
        }
    }
}
