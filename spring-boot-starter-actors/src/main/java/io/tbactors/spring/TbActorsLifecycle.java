package io.tbactors.spring;

import io.tbactors.core.DefaultTbActorSystem;
import java.time.Duration;
import lombok.extern.slf4j.Slf4j;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the root actor with the application context and stops the actor system gracefully with it: stop
 * accepting new messages, let the mailboxes drain up to {@code tb.actors.shutdown-timeout}, then destroy the actors
 * (telling every undelivered message {@code STOPPED}) and end the dispatcher threads.
 *
 * <p>Its {@link #PHASE} lies between the web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}) and the web
 * server's stop ({@code DEFAULT_PHASE - 2048}): requests in flight finish first (their actors still run, so they get
 * their answers), then the actors drain and stop, and only then do the beans they use go away (singletons are
 * destroyed after every lifecycle has stopped). Default-phase components that feed the actors, such as message
 * listener containers, stop before all of this.
 */
@Slf4j
public class TbActorsLifecycle implements SmartLifecycle {

    /** Phase of this lifecycle: stops after the web server's graceful shutdown and before the web server itself. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1536;

    private final DefaultTbActorSystem actorSystem;
    private final ActorSystemContext actorSystemContext;
    private final TbActorsProperties properties;
    private volatile boolean running;

    /**
     * @param actorSystem the actor system
     * @param actorSystemContext the context whose root actor is created on start
     * @param properties the settings (root dispatcher, shutdown timeout)
     */
    public TbActorsLifecycle(DefaultTbActorSystem actorSystem, ActorSystemContext actorSystemContext,
                             TbActorsProperties properties) {
        this.actorSystem = actorSystem;
        this.actorSystemContext = actorSystemContext;
        this.properties = properties;
    }

    @Override
    public void start() {
        if (!actorSystem.isRunning()) {
            throw new IllegalStateException("The actor system was stopped and cannot start again: "
                    + "stopping it destroyed its actors and ended its threads; create a new application context instead");
        }
        actorSystemContext.createRootActor(properties.getRootDispatcher());
        running = true;
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        Duration timeout = properties.getShutdownTimeout();
        actorSystemContext.stopAcceptingMessages();
        log.info("Stopping the actor system: draining {} waiting message(s) for up to {}", actorSystem.getPendingMessages(), timeout);
        if (!actorSystem.awaitQuiescence(timeout)) {
            log.warn("Mailboxes not drained within {}: {} message(s) still waiting are told STOPPED", timeout,
                    actorSystem.getPendingMessages());
        }
        actorSystem.stop(timeout);
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /**
     * Stopping an actor system is final (its actors are destroyed and its threads end), so this lifecycle does not
     * take part in a context pause, such as the one the Spring TestContext framework applies to cached contexts that
     * are not in use: the actors keep running while the context is paused.
     */
    @Override
    public boolean isPauseable() {
        return false;
    }
}
