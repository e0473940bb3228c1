package io.tbactors.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorNotRegisteredException;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.DefaultTbActorSystem;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** Runs small test classes through the JUnit engine and checks what the extension made of them. */
class TbActorSystemExtensionTest {

    private static final AtomicReference<DefaultTbActorSystem> LAST_SYSTEM = new AtomicReference<>();

    record Lost() implements TbActorMsg {
    }

    private static void tellNobody(DefaultTbActorSystem system) {
        try {
            system.tell(new TbStringActorId("nobody"), new Lost());
        } catch (TbActorNotRegisteredException expected) {
            // the sender is told; the extension still reports the dead letter unless the test allows it
        }
    }

    record Reading(double value) implements TbActorMsg {
    }

    private static Throwable failureOf(Events events) {
        return events.failed().stream().findFirst().orElseThrow().getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).orElseThrow();
    }

    private static Events run(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute().testEvents();
    }

    @ExtendWith(TbActorSystemExtension.class)
    static class CleanFixture {
        @Test
        void usesTheSystem(DefaultTbActorSystem system) {
            LAST_SYSTEM.set(system);
            assertThat(system.isRunning()).isTrue();
        }
    }

    @ExtendWith(TbActorSystemExtension.class)
    static class DeadLetterFixture {
        @Test
        void tellsAnActorThatDoesNotExist(DefaultTbActorSystem system) {
            tellNobody(system);
        }
    }

    @ExtendWith(TbActorSystemExtension.class)
    static class AllowedDeadLetterFixture {
        @Test
        void tellsAnActorThatDoesNotExistOnPurpose(TbTestActorSystem actors) {
            actors.allowDeadLetters();
            tellNobody(actors.system());
        }
    }

    static class LostMessageFixture {
        @RegisterExtension
        final TbActorSystemExtension extension = new TbActorSystemExtension();

        @Test
        void aRuntimeThatReportsTwoTellsAndNoFate(TbTestActorSystem actors) {
            // the injected bug: the runtime reports two readings told to device-1 and never what became of them (the
            // runtime itself no longer loses one: a stop that gives up tells the queued messages of every actor)
            TbStringActorId device = new TbStringActorId("device-1");
            actors.ledger().onTold(device, new Reading(21.5));
            actors.ledger().onTold(device, new Reading(22.0));
        }
    }

    /** A dispatcher that accepts an actor's turns and, after its init, never runs one; the system stop gives up. */
    static class NeverRunDispatcherFixture {
        @RegisterExtension
        final TbActorSystemExtension extension = TbActorSystemExtension.using(() -> TbTestActorSystem.builder()
                .settings(settings -> settings.shutdownTimeout(Duration.ofMillis(200))).build());

        @Test
        void stopsAnActorWhoseQueuedReadingsTheBrokenDispatcherNeverRuns(TbTestActorSystem actors) {
            ManualDispatcher broken = new ManualDispatcher();
            actors.system().createDispatcher("broken", broken);
            TbActorRef device = actors.system().createRootActor("broken", TbActorCreators.of("device-1", RecordingActor::new));
            broken.runUntilIdle();
            device.tell(new Reading(21.5));
            device.tell(new Reading(22.0));
            actors.system().stop(device.getActorId());
        }
    }

    /** Processes everything it is told. */
    static final class RecordingActor extends io.tbactors.api.AbstractTbActor {
        @Override
        public boolean process(TbActorMsg msg) {
            return true;
        }
    }

    @ExtendWith(TbActorSystemExtension.class)
    static class EveryFateReportedFixture {
        @Test
        void processesRefusesAndStopsWithEveryMessageAccountedFor(TbTestActorSystem actors) {
            actors.allowDeadLetters();
            TbActorRef device = actors.createRootActor(TbActorCreators.of("device-1", RecordingActor::new));
            device.tell(new Reading(1));
            actors.system().stop(device.getActorId());
            assertThat(device.tryTell(new Reading(2))).as("handed back to the sender").isFalse();
            device.tell(new Reading(3));
        }
    }

    static class LeakedThreadFixture {
        static final CountDownLatch RELEASE = new CountDownLatch(1);

        @RegisterExtension
        final TbActorSystemExtension extension = new TbActorSystemExtension().threadGrace(Duration.ofMillis(200));

        @Test
        void startsAThreadAndLeavesIt() {
            Thread leaked = new Thread(() -> {
                try {
                    RELEASE.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "leaked-by-test");
            leaked.setDaemon(true);
            leaked.start();
        }
    }

    @Test
    void aCleanTestPassesWithAFreshSystemThatIsStoppedAfterwards() {
        run(CleanFixture.class).assertStatistics(stats -> stats.started(1).succeeded(1).failed(0));
        DefaultTbActorSystem first = LAST_SYSTEM.get();
        assertThat(first.isRunning()).as("stopped after the test").isFalse();

        run(CleanFixture.class).assertStatistics(stats -> stats.succeeded(1));
        assertThat(LAST_SYSTEM.get()).as("a fresh system per test").isNotSameAs(first);
    }

    @Test
    void aMessageThatReachedNoActorFailsTheTestNamingIt() {
        Events events = run(DeadLetterFixture.class);

        events.assertStatistics(stats -> stats.failed(1));
        assertThat(events.failed().stream().findFirst().orElseThrow().getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).orElseThrow())
                .isInstanceOf(AssertionError.class).hasMessageContaining("reached no actor").hasMessageContaining("Lost to nobody");
    }

    @Test
    void aMessageToldButNeitherProcessedNorReportedFailsTheTestNamingIt() {
        Events events = run(LostMessageFixture.class);

        events.assertStatistics(stats -> stats.failed(1));
        // word for word what the README shows
        assertThat(failureOf(events)).isInstanceOf(AssertionError.class).hasMessage("""
                The test's actor system was left in a bad state:
                 - 2 message(s) were lost: told to an actor but neither processed nor reported back to the sender \
                (onTbActorStopped, false from tryTell): [Reading[value=21.5] to device-1, Reading[value=22.0] to device-1]\
                """);
    }

    @Test
    void messagesQueuedOnADispatcherThatNeverRunsAreToldWhenTheStopGivesUpAndReportedAsDeadLetters() {
        Events events = run(NeverRunDispatcherFixture.class);

        events.assertStatistics(stats -> stats.failed(1));
        assertThat(failureOf(events)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("did not destroy every actor within its shutdown timeout PT0.2S")
                .hasMessageContaining("2 message(s) reached no actor")
                .hasMessageContaining("Reading to device-1 (SYSTEM_STOPPED)")
                .hasMessageNotContaining("were lost");
    }

    @Test
    void aTestWhoseMessagesWereAllProcessedRefusedOrToldWhyPasses() {
        run(EveryFateReportedFixture.class).assertStatistics(stats -> stats.started(1).succeeded(1).failed(0));
    }

    @Test
    void deadLettersTheTestAllowsDoNotFailIt() {
        run(AllowedDeadLetterFixture.class).assertStatistics(stats -> stats.succeeded(1).failed(0));
    }

    @Test
    void aThreadLeftBehindFailsTheTestNamingIt() {
        try {
            Events events = run(LeakedThreadFixture.class);

            events.assertStatistics(stats -> stats.failed(1));
            assertThat(events.failed().stream().findFirst().orElseThrow()
                    .getPayload(org.junit.platform.engine.TestExecutionResult.class)
                    .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).orElseThrow())
                    .hasMessageContaining("still alive").hasMessageContaining("leaked-by-test");
        } finally {
            LeakedThreadFixture.RELEASE.countDown();
        }
    }
}
