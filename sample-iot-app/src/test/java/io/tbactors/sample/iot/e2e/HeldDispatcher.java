package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.tbactors.core.DefaultTbActorSystem;

/**
 * Occupies a one-thread dispatcher's thread until released, so the actors on it cannot take their messages.
 */
final class HeldDispatcher implements AutoCloseable {

    private final CountDownLatch release = new CountDownLatch(1);

    private HeldDispatcher() {
    }

    /**
     * @param actorSystem the actor system
     * @param dispatcher a dispatcher with one thread
     * @return the hold, taken once this returns
     * @throws InterruptedException when interrupted while waiting for the thread
     */
    static HeldDispatcher hold(DefaultTbActorSystem actorSystem, String dispatcher) throws InterruptedException {
        HeldDispatcher hold = new HeldDispatcher();
        CountDownLatch held = new CountDownLatch(1);
        actorSystem.getDispatcher(dispatcher).orElseThrow().getExecutor().execute(() -> {
            held.countDown();
            try {
                hold.release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(held.await(10, TimeUnit.SECONDS)).as("the %s dispatcher's thread is held", dispatcher).isTrue();
        return hold;
    }

    /** Lets the thread go. */
    @Override
    public void close() {
        release.countDown();
    }
}
