package io.tbactors.spring;

import io.tbactors.api.TbActorSystem;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.observe.TbActorSystemIntrospection;
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

    private final TbActorSystem actorSystem;
    private final ActorSystemContext actorSystemContext;
    private final String rootDispatcher;
    private final Duration shutdownTimeout;
    private volatile boolean running;

    /**
     * @param actorSystem the actor system; when it offers {@link TbActorSystemIntrospection} its mailboxes are drained
     *     before it stops, otherwise it is stopped at once; a {@link DefaultTbActorSystem} stops within the shutdown
     *     timeout, another system within its own
     * @param actorSystemContext the context whose root actor is created on start
     * @param rootDispatcher the root actor's dispatcher when its declaration names none
     * @param shutdownTimeout the longest drain on shutdown, and then the longest stop
     */
    public TbActorsLifecycle(TbActorSystem actorSystem, ActorSystemContext actorSystemContext, String rootDispatcher,
                             Duration shutdownTimeout) {
        this.actorSystem = actorSystem;
        this.actorSystemContext = actorSystemContext;
        this.rootDispatcher = rootDispatcher;
        this.shutdownTimeout = shutdownTimeout;
    }

    @Override
    public void start() {
        if (actorSystem instanceof TbActorSystemIntrospection view && !view.isRunning()) {
            throw new IllegalStateException("The actor system was stopped and cannot start again: "
                    + "stopping it destroyed its actors and ended its threads; create a new application context instead");
        }
        actorSystemContext.createRootActor(rootDispatcher);
        running = true;
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        actorSystemContext.stopAcceptingMessages();
        if (actorSystem instanceof TbActorSystemIntrospection view) {
            log.info("Stopping the actor system: draining {} waiting message(s) for up to {}", view.getPendingMessages(),
                    shutdownTimeout);
            if (!view.awaitQuiescence(shutdownTimeout)) {
                log.warn("Mailboxes not drained within {}: {} message(s) still waiting are told STOPPED", shutdownTimeout,
                        view.getPendingMessages());
            }
        }
        if (actorSystem instanceof DefaultTbActorSystem system) {
            system.stop(shutdownTimeout);
        } else {
            actorSystem.stop();
        }
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
