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
 * <p>Its {@link #PHASE} is above the web server's graceful shutdown, so the actors stop first, while the beans they
 * use are still there (singletons are destroyed only after every lifecycle has stopped), and after the
 * default-phase components such as message listener containers that feed them.
 */
@Slf4j
public class TbActorsLifecycle implements SmartLifecycle {

    /** Phase of this lifecycle: after default-phase components, before the web server's graceful shutdown. */
    public static final int PHASE = Integer.MAX_VALUE - 512;

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
}
