package io.tbactors.core;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** Actors and creators shared by the runtime's tests. */
final class TestActors {

    private TestActors() {
    }

    /** An actor that hands every message to a function; {@link TestMsgs.Numbered} messages are marked processed. */
    static class FnActor extends AbstractTbActor {
        private final Consumer<TbActorMsg> onMsg;

        FnActor(Consumer<TbActorMsg> onMsg) {
            this.onMsg = onMsg;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            onMsg.accept(msg);
            if (msg instanceof TestMsgs.Numbered numbered) {
                numbered.markProcessed();
            }
            return true;
        }
    }

    static TbActorCreator creator(TbActorId id, Supplier<TbActor> actor) {
        // a null id is allowed here so tests can check the system's own null check
        return id == null ? new TbActorCreator() {
            @Override
            public TbActorId createActorId() {
                return null;
            }

            @Override
            public TbActor createActor() {
                return actor.get();
            }
        } : TbActorCreator.of(id, actor);
    }

    static TbActorCreator counting(TbActorId id) {
        return creator(id, () -> new FnActor(msg -> { }));
    }
}
