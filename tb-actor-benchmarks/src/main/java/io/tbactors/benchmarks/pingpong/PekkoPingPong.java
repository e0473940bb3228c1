package io.tbactors.benchmarks.pingpong;

import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.LatencyRecorder;
import io.tbactors.benchmarks.support.Runtimes;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** Ping-pong between two Pekko classic actors; the responder answers the sender. */
final class PekkoPingPong implements PingPong {

    private final ActorSystem system = Runtimes.newPekkoSystem("pingpong");
    private final Completion done = new Completion();
    private final ActorRef requester;

    PekkoPingPong() {
        ActorRef responder = system.actorOf(Props.create(Responder.class, Responder::new), "responder");
        requester = system.actorOf(Props.create(Requester.class, () -> new Requester(responder, new RoundTrips(done))), "requester");
    }

    @Override
    public void roundTrips(int count, LatencyRecorder recorder) {
        done.arm(1);
        requester.tell(new Messages.Start(count, recorder), ActorRef.noSender());
        done.await();
    }

    @Override
    public void close() {
        Runtimes.stop(system);
    }

    private static final class Requester extends UntypedAbstractActor {
        private final ActorRef responder;
        private final RoundTrips roundTrips;

        Requester(ActorRef responder, RoundTrips roundTrips) {
            this.responder = responder;
            this.roundTrips = roundTrips;
        }

        @Override
        public void onReceive(Object msg) {
            if (msg == Messages.Bounce.PONG) {
                if (roundTrips.responseReceived()) {
                    responder.tell(Messages.Bounce.PING, getSelf());
                }
            } else if (msg instanceof Messages.Start start) {
                roundTrips.start(start);
                responder.tell(Messages.Bounce.PING, getSelf());
            } else {
                unhandled(msg);
            }
        }
    }

    private static final class Responder extends UntypedAbstractActor {
        @Override
        public void onReceive(Object msg) {
            getSender().tell(Messages.Bounce.PONG, getSelf());
        }
    }
}
