package io.tbactors.benchmarks.pingpong;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.LatencyRecorder;
import io.tbactors.benchmarks.support.Runtimes;
import io.tbactors.api.TbActorCreator;
import io.tbactors.core.DefaultTbActorSystem;

/** Ping-pong between two actors of ours. */
final class TbPingPong implements PingPong {

    private final DefaultTbActorSystem system = Runtimes.newTbSystem();
    private final Completion done = new Completion();
    private final TbActorRef requester;

    TbPingPong() {
        TbActorRef responder = system.createRootActor(Runtimes.DISPATCHER,
                TbActorCreator.of(new TbStringActorId("responder"), Responder::new));
        requester = system.createRootActor(Runtimes.DISPATCHER,
                TbActorCreator.of(new TbStringActorId("requester"), () -> new Requester(responder, new RoundTrips(done))));
    }

    @Override
    public void roundTrips(int count, LatencyRecorder recorder) {
        done.arm(1);
        requester.tell(new Messages.Start(count, recorder));
        done.await();
    }

    @Override
    public void close() {
        Runtimes.stop(system);
    }

    private static final class Requester extends AbstractTbActor {
        private final TbActorRef responder;
        private final RoundTrips roundTrips;
        private Messages.Request request;

        Requester(TbActorRef responder, RoundTrips roundTrips) {
            this.responder = responder;
            this.roundTrips = roundTrips;
        }

        @Override
        public void init(TbActorCtx ctx) throws TbActorException {
            super.init(ctx);
            request = new Messages.Request(ctx);
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (msg == Messages.Bounce.PONG) {
                if (roundTrips.responseReceived()) {
                    responder.tell(request);
                }
            } else if (msg instanceof Messages.Start start) {
                roundTrips.start(start);
                responder.tell(request);
            } else {
                return false;
            }
            return true;
        }
    }

    private static final class Responder extends AbstractTbActor {
        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof Messages.Request request) {
                request.replyTo().tell(Messages.Bounce.PONG);
                return true;
            }
            return false;
        }
    }
}
