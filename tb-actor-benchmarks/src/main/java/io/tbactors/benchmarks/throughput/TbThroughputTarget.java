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
import java.time.Duration;

/** Counting actors on our runtime, with the compact mailbox (the default) or the padded one. */
final class TbThroughputTarget implements ThroughputTarget {

    static final String ACTOR_ID_PREFIX = "counter-";
    /** Actors part way through their round that {@link #diagnostics} describes, at most. */
    static final int ACTORS_DESCRIBED = 10;

    private final DefaultTbActorSystem system = Runtimes.newTbSystem();
    private final TbActorRef[] refs;
    private final RoundCounter[] counters;

    TbThroughputTarget(Shape shape, Completion completion) {
        this(shape, completion, false);
    }

    TbThroughputTarget(Shape shape, Completion completion, boolean paddedMailboxes) {
        system.setPaddedMailboxes(Runtimes.DISPATCHER, paddedMailboxes);
        refs = new TbActorRef[shape.actors()];
        counters = new RoundCounter[shape.actors()];
        for (int i = 0; i < refs.length; i++) {
            RoundCounter counter = new RoundCounter(shape.messagesPerActor(), completion);
            counters[i] = counter;
            refs[i] = system.createRootActor(Runtimes.DISPATCHER, TbActorCreator.of(new TbStringActorId(ACTOR_ID_PREFIX + i),
                    () -> new CountingActor(counter)));
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

    /**
     * @return the dispatcher's counts (threads, active threads, turns queued in the pool), the fullest mailboxes, then
     *     each actor part way through its round (up to {@value #ACTORS_DESCRIBED}) with what it received and its mailbox's state and
     *     pending messages: an idle actor with messages would be a lost wake-up of ours, a queued turn with no active
     *     thread one of the pool's
     */
    @Override
    public String diagnostics() {
        StringBuilder out = new StringBuilder("dispatchers: ").append(system.getDispatcherStats());
        // the fullest mailboxes also show an actor stalled before it took its round's first message
        out.append("; fullest mailboxes: ").append(system.getLargestMailboxes(ACTORS_DESCRIBED));
        out.append("; actors part way through the round:");
        int described = 0;
        for (int i = 0; i < counters.length && described < ACTORS_DESCRIBED; i++) {
            int received = counters[i].received();
            if (received == 0) {
                continue;
            }
            described++;
            String id = ACTOR_ID_PREFIX + i;
            out.append(' ').append(id).append(" received ").append(received).append(" of ").append(counters[i].perRound())
                    .append(", ").append(system.findActorStats(id).map(Object::toString).orElse("not registered")).append(';');
        }
        if (described == 0) {
            out.append(" none");
        }
        return out.toString();
    }

    /**
     * @param timeout how long to wait
     * @return whether every mailbox drained and no turn ran or waited within the timeout
     */
    boolean awaitQuiescence(Duration timeout) {
        return system.awaitQuiescence(timeout);
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
