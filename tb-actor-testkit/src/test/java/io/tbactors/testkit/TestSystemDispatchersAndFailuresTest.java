package io.tbactors.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.observe.ActorFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** A test system knows the application's dispatcher names, and a failure the test did not declare fails it. */
class TestSystemDispatchersAndFailuresTest {

    record Count(int n) implements TbActorMsg {
    }

    record Boom() implements TbActorMsg {
    }

    /** Keeps a counter child on the dispatcher {@code counters}, as an application's actor would. */
    static final class Parent extends AbstractTbActor {
        private final TbActorProbe probe;

        Parent(TbActorProbe probe) {
            this.probe = probe;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof Boom) {
                throw new IllegalStateException("sensor offline");
            }
            TbActorId childId = new TbStringActorId("counter");
            ctx.getOrCreateChildActor(childId, () -> "counters", () -> TbActorCreators.of(childId, () -> new AbstractTbActor() {
                @Override
                public boolean process(TbActorMsg m) {
                    probe.tell(m);
                    return true;
                }
            })).tell(msg);
            return true;
        }
    }

    @Test
    void aChildOnAnApplicationDispatcherWorksWhenTheTestSystemIsGivenItsName() {
        try (TbTestActorSystem kit = TbTestActorSystem.builder().dispatchers("counters").build()) {
            TbActorProbe probe = kit.probes().create("probe");
            TbActorRef parent = kit.createRootActor(TbActorCreators.of(new TbStringActorId("parent"), () -> new Parent(probe)));
            parent.tell(new Count(1));
            assertThat(probe.expectMessage(new Count(1))).isNotNull();
            assertThat(kit.failures()).isEmpty();
        }
    }

    @Test
    void withoutTheDispatcherTheFailureNamesItAndIsRecordedWithItsException() {
        try (TbTestActorSystem kit = TbTestActorSystem.callingThread()) {
            TbActorProbe probe = kit.probes().create("probe");
            TbActorRef parent = kit.createRootActor(TbActorCreators.of(new TbStringActorId("parent"), () -> new Parent(probe)));
            parent.tell(new Count(1));
            assertThat(kit.failures()).singleElement().satisfies(failure -> {
                assertThat(failure.actorId()).isEqualTo(new TbStringActorId("parent"));
                assertThat(failure.phase()).isEqualTo(ActorFailure.Phase.PROCESS);
                assertThat(failure.cause()).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("Dispatcher 'counters' is not registered");
            });
            assertThat(kit.undeclaredFailures()).hasSize(1);
        }
    }

    @Test
    void theBuilderRefusesBlankAndRepeatedDispatcherNames() {
        assertThatThrownBy(() -> TbTestActorSystem.builder().dispatchers("a", " ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank");
        assertThatThrownBy(() -> TbTestActorSystem.builder().dispatchers("default")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'default' always exists");
        assertThatThrownBy(() -> TbTestActorSystem.builder().dispatchers("a", "a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("named twice");
    }

    @ExtendWith(TbActorSystemExtension.class)
    static class UndeclaredFailureFixture {
        @Test
        void anActorFails(TbTestActorSystem kit) {
            kit.createRootActor(TbActorCreators.of(new TbStringActorId("parent"), () -> new Parent(kit.probes().create("p"))))
                    .tell(new Boom());
        }
    }

    @ExtendWith(TbActorSystemExtension.class)
    static class DeclaredFailureFixture {
        @Test
        void anActorFailsAsDeclared(TbTestActorSystem kit) {
            kit.expectFailure(IllegalStateException.class);
            kit.createRootActor(TbActorCreators.of(new TbStringActorId("parent"), () -> new Parent(kit.probes().create("p"))))
                    .tell(new Boom());
        }
    }

    @ExtendWith(TbActorSystemExtension.class)
    static class DeclaredButAbsentFailureFixture {
        @Test
        void noActorFails(TbTestActorSystem kit) {
            kit.expectFailure(IllegalStateException.class);
        }
    }

    private static Events run(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute().testEvents();
    }

    private static Throwable failureOf(Events events) {
        return events.failed().stream().findFirst().orElseThrow().getPayload(TestExecutionResult.class)
                .flatMap(TestExecutionResult::getThrowable).orElseThrow();
    }

    @Test
    void theExtensionFailsATestForAnUndeclaredFailureWithItsExceptionAsTheCause() {
        Events events = run(UndeclaredFailureFixture.class);
        assertThat(events.failed().count()).isEqualTo(1);
        assertThat(failureOf(events)).isInstanceOf(AssertionError.class).hasMessageContaining("did not declare")
                .hasMessageContaining("sensor offline").hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void aDeclaredFailurePassesAndADeclaredFailureThatNeverHappenedFails() {
        assertThat(run(DeclaredFailureFixture.class).succeeded().count()).isEqualTo(1);
        Events absent = run(DeclaredButAbsentFailureFixture.class);
        assertThat(absent.failed().count()).isEqualTo(1);
        assertThat(failureOf(absent)).hasMessageContaining("never happened").hasMessageContaining(IllegalStateException.class.getName());
    }
}
