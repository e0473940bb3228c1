package io.tbactors.sample.iot.actors;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorId;
import io.tbactors.spring.ActorSystemContext;
import io.tbactors.spring.TbRootActorCreator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Declares the application actor as the root actor, on the {@code app} dispatcher.
 */
@Component
public class AppActorCreator implements TbRootActorCreator {

    // a provider: the ActorSystemContext bean is built with this creator, so it cannot be injected directly
    private final ObjectProvider<ActorSystemContext> systemContext;

    /** @param systemContext the actor system context, resolved when the actor is created */
    public AppActorCreator(ObjectProvider<ActorSystemContext> systemContext) {
        this.systemContext = systemContext;
    }

    @Override
    public TbActorId createActorId() {
        return IotActorIds.APP;
    }

    @Override
    public TbActor createActor() {
        return new AppActor(systemContext.getObject().getBean(IotActorServices.class));
    }

    @Override
    public String getDispatcherName() {
        return IotDispatchers.APP;
    }
}
