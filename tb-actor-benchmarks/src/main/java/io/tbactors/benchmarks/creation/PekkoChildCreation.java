package io.tbactors.benchmarks.creation;

import io.tbactors.benchmarks.support.Runtimes;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;
import org.apache.pekko.pattern.Patterns;

/** A Pekko parent creating its children with {@code context.actorOf}. */
final class PekkoChildCreation extends ChildCreation {

    private static final Duration STOP_WAIT = Duration.ofSeconds(60);

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

    private CompletionStage<Boolean> parentStopped;

    @Override
    void stopParent() {
        parentStopped = Patterns.gracefulStop(parent, STOP_WAIT);
    }

    /** Pekko's parent terminates once every child has: wait for that, as for the other runtimes' stop. */
    @Override
    void awaitStopFinished() {
        try {
            parentStopped.toCompletableFuture().get(STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the parent stopped", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the parent did not stop within " + STOP_WAIT, e);
        }
    }

    /** @return whether the current parent has terminated (for the harness's own test) */
    boolean parentTerminated() {
        return parentStopped.toCompletableFuture().getNow(Boolean.FALSE);
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
