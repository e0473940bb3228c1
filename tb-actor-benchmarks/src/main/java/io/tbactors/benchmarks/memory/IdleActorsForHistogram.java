package io.tbactors.benchmarks.memory;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbStringActorId;
import io.tbactors.benchmarks.support.Runtimes;
import io.tbactors.core.DefaultTbActorSystem;
import java.util.concurrent.CountDownLatch;

/**
 * Holds idle actors of ours in a JVM for a class histogram, to see what an idle actor is made of:
 * {@code java -cp benchmarks.jar io.tbactors.benchmarks.memory.IdleActorsForHistogram 200000 [told]}, then
 * {@code jcmd <pid> GC.class_histogram}. The actors have the memory benchmark's shape (children of one root actor,
 * ids {@code device-<i>}); with {@code told} each has processed one message first. Ends on Enter.
 */
public final class IdleActorsForHistogram {

    private static CountDownLatch pending;

    private IdleActorsForHistogram() {
    }

    /** @param args the number of actors, then optionally {@code told} @throws Exception when interrupted */
    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        boolean told = args.length > 1 && "told".equals(args[1]);
        DefaultTbActorSystem system = Runtimes.newTbSystem();
        TbActorId parent = new TbStringActorId("tenant");
        // the root actor's init counts too
        pending = new CountDownLatch(count + 1);
        system.createRootActor(Runtimes.DISPATCHER, TbActorCreator.of(parent, Idle::new));
        for (int i = 0; i < count; i++) {
            system.createChildActor(Runtimes.DISPATCHER, TbActorCreator.of(new TbStringActorId("device-" + i), Idle::new), parent);
        }
        pending.await();
        if (told) {
            pending = new CountDownLatch(count);
            system.broadcastToChildren(parent, new Poke());
            pending.await();
        }
        System.out.println(count + " idle actors" + (told ? ", each told one message," : "") + " in pid "
                + ProcessHandle.current().pid() + "; jcmd <pid> GC.class_histogram, then Enter to end");
        System.in.read();
        Runtimes.stop(system);
    }

    private record Poke() implements TbActorMsg {
    }

    private static final class Idle extends AbstractTbActor {
        @Override
        public void init(TbActorCtx ctx) throws TbActorException {
            super.init(ctx);
            pending.countDown();
        }

        @Override
        public boolean process(TbActorMsg msg) {
            pending.countDown();
            return true;
        }
    }
}
