package io.tbactors.spring.example.start;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbStringActorId;
import io.tbactors.spring.ActorSystemContext;
import io.tbactors.spring.TbRootActorCreator;
import org.springframework.stereotype.Component;

@Component
class AppActorCreator implements TbRootActorCreator {
    private final ActorSystemContext actors;

    AppActorCreator(ActorSystemContext actors) {
        this.actors = actors;
    }

    @Override
    public TbActorId createActorId() {
        return new TbStringActorId("app");
    }

    @Override
    public TbActor createActor() {
        return new AppActor(actors);
    }
}
