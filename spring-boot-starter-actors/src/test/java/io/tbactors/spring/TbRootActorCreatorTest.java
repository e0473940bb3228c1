package io.tbactors.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbStringActorId;
import org.junit.jupiter.api.Test;

class TbRootActorCreatorTest {

    static final class Root extends AbstractTbActor {
        @Override
        public boolean process(TbActorMsg msg) {
            return true;
        }
    }

    @Test
    void aRootMadeOfAnIdAndAConstructorGivesAFreshActorEachTimeOnTheConfiguredDispatcher() {
        TbRootActorCreator root = TbRootActorCreator.of(new TbStringActorId("app"), Root::new);

        assertThat(root.createActorId()).isEqualTo(new TbStringActorId("app"));
        assertThat(root.createActor()).isInstanceOf(Root.class).isNotSameAs(root.createActor());
        assertThat(root.getDispatcherName()).as("tb.actors.root-dispatcher decides").isNull();
        assertThat(root).hasToString("TbRootActorCreator{app}");
    }

    @Test
    void missingPartsAreRefusedNamingThem() {
        assertThatThrownBy(() -> TbRootActorCreator.of(null, Root::new)).hasMessageContaining("actorId must not be null");
        assertThatThrownBy(() -> TbRootActorCreator.of(new TbStringActorId("app"), null))
                .hasMessageContaining("actor supplier must not be null");
        assertThatThrownBy(() -> TbRootActorCreator.of(new TbStringActorId("app"), () -> null).createActor())
                .hasMessageContaining("the root actor supplier returned null");
    }
}
