package io.tbactors.spring;

import io.tbactors.core.observe.DeadLetter;
import io.tbactors.core.observe.DeadLetterListener;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import lombok.extern.slf4j.Slf4j;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Subscribes to the actor system's dead letters and republishes each one as a {@link TbDeadLetterEvent}.
 */
@Slf4j
public class DeadLetterEventBridge implements DeadLetterListener, InitializingBean, DisposableBean {

    private final TbActorSystemIntrospection actorSystem;
    private final ApplicationEventPublisher publisher;

    /**
     * @param actorSystem where the dead letters come from
     * @param publisher where the events go
     */
    public DeadLetterEventBridge(TbActorSystemIntrospection actorSystem, ApplicationEventPublisher publisher) {
        this.actorSystem = actorSystem;
        this.publisher = publisher;
    }

    @Override
    public void afterPropertiesSet() {
        actorSystem.addDeadLetterListener(this);
    }

    @Override
    public void destroy() {
        actorSystem.removeDeadLetterListener(this);
    }

    @Override
    public void onDeadLetter(DeadLetter deadLetter) {
        try {
            publisher.publishEvent(new TbDeadLetterEvent(actorSystem, deadLetter));
        } catch (RuntimeException e) {
            // the context may be closing; a failing listener must not break the runtime's bookkeeping
            log.debug("Could not publish dead letter to {}", deadLetter.target(), e);
        }
    }
}
