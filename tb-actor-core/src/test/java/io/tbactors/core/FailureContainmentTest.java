package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.observe.TbActorSystemListener;
import io.tbactors.core.observe.TbMessageContextPropagator;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * User code and plug-ins that throw: none may wedge an actor, kill a thread or skip a message's fate; each failure
 * is counted.
 */
class FailureContainmentTest {

    private final TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
    private final TbActorId id = new TbStringActorId("a");

    private static DefaultTbActorSystem system(Function<TbActorSystemSettings.Builder, TbActorSystemSettings.Builder> settings,
                                               TbActorSystemListener listener) {
        DefaultTbActorSystem system = new DefaultTbActorSystem(settings.apply(TbActorSystemSettings.builder()
                .shutdownTimeout(Duration.ofSeconds(2))).build(), listener);
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
        return system;
    }

    private void tellAndExpectAllProcessed(DefaultTbActorSystem system, TbActorRef ref, int count) {
        for (int i = 0; i < count; i++) {
            ref.tell(new TestMsgs.Numbered(i, outcomes));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> outcomes.processed.sum() == count);
        assertThat(outcomes.stoppedTotal()).isZero();
    }

    @Test
    void aCreatorThatThrowsACheckedExceptionLeavesNothingRegisteredAndTheStopDoesNotWait() {
        DefaultTbActorSystem system = system(b -> b, TbActorSystemListener.NOOP);
        assertThatThrownBy(() -> system.createRootActor("d", creator(id, FailureContainmentTest::sneakyIoFailure)))
                .isInstanceOf(IOException.class).hasMessage("disk gone");

        assertThat(system.getActor(id)).isNull();
        assertThat(system.getActorCount()).isZero();
        TbActorRef again = system.createRootActor("d", TestActors.counting(id));
        tellAndExpectAllProcessed(system, again, 3);
        assertThat(system.stop(Duration.ofSeconds(2))).isTrue();
    }

    @Test
    void aListenerThatThrowsEverywhereNeitherWedgesTheActorNorLosesAMessage() {
        TbActorSystemListener throwing = new TbActorSystemListener() {
            @Override
            public void onActorCreated(String dispatcher, String actorType) {
                throw new IllegalStateException("created");
            }

            @Override
            public void onMessageProcessed(String dispatcher, String actorType, long waitNanos, long processNanos, boolean failed) {
                throw new IllegalStateException("processed");
            }

            @Override
            public void onMessageNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason, boolean afterStop) {
                throw new IllegalStateException("not processed");
            }

            @Override
            public void onActorDestroyed(String dispatcher, String actorType, TbActorStopReason reason) {
                throw new IllegalStateException("destroyed");
            }
        };
        DefaultTbActorSystem system = system(b -> b, throwing);
        TbActorRef ref = system.createRootActor("d", TestActors.counting(id));
        tellAndExpectAllProcessed(system, ref, 50);
        system.stop(id);
        await().until(() -> system.getActorCount() == 0);
        ref.tell(new TestMsgs.Numbered(99, outcomes));

        assertThat(outcomes.stoppedCount(TbActorStopReason.STOPPED)).isEqualTo(1);
        assertThat(system.getCallbackFailureCount()).isGreaterThanOrEqualTo(50 + 3);
        assertThat(system.stop(Duration.ofSeconds(2))).isTrue();
    }

    @Test
    void aContextPropagatorThatThrowsOnCaptureRestoreOrCloseStillLetsEveryMessageThrough() {
        AtomicInteger calls = new AtomicInteger();
        TbMessageContextPropagator broken = new TbMessageContextPropagator() {
            @Override
            public Object capture() {
                if (calls.incrementAndGet() % 3 == 0) {
                    throw new IllegalStateException("capture");
                }
                return "ctx";
            }

            @Override
            public Scope restore(Object context) {
                if (calls.incrementAndGet() % 2 == 0) {
                    throw new IllegalStateException("restore");
                }
                return () -> {
                    throw new IllegalStateException("close");
                };
            }
        };
        DefaultTbActorSystem system = system(b -> b.contextPropagator(broken), TbActorSystemListener.NOOP);
        TbActorRef ref = system.createRootActor("d", TestActors.counting(id));
        tellAndExpectAllProcessed(system, ref, 60);
        assertThat(system.getCallbackFailureCount()).isGreaterThan(0);
        assertThat(system.stop(Duration.ofSeconds(2))).isTrue();
    }

    @Test
    void aThrowingDeadLetterListenerAndOnTbActorStoppedAreCountedAndTheNextMessagesStillGetTheirFate() {
        DefaultTbActorSystem system = system(b -> b, TbActorSystemListener.NOOP);
        system.addDeadLetterListener(letter -> {
            throw new AssertionError("listener bug");
        });
        TbActorRef ref = system.createRootActor("d", TestActors.counting(id));
        system.stop(id);
        await().until(() -> system.getActorCount() == 0);
        ref.tell(new TbActorMsg() {
            @Override
            public void onTbActorStopped(TbActorStopReason reason) {
                throw new IllegalStateException("callback bug");
            }
        });
        ref.tell(new TestMsgs.Numbered(1, outcomes));

        assertThat(outcomes.stoppedCount(TbActorStopReason.STOPPED)).isEqualTo(1);
        assertThat(system.getCallbackFailureCount()).isEqualTo(3);
        assertThat(system.stop(Duration.ofSeconds(2))).isTrue();
    }

    @Test
    void aDestroyThatThrowsStillFreesTheActorAndTellsItsMessages() {
        DefaultTbActorSystem system = system(b -> b, TbActorSystemListener.NOOP);
        TbActorRef ref = system.createRootActor("d", creator(id, () -> new ProbeActor(new ProbeActor.Record()) {
            @Override
            void onDestroy(TbActorStopReason reason) {
                throw new IllegalStateException("destroy bug");
            }
        }));
        system.stop(id);
        await().until(() -> system.getActorCount() == 0);
        ref.tell(new TestMsgs.Numbered(1, outcomes));
        assertThat(outcomes.stoppedCount(TbActorStopReason.STOPPED)).isEqualTo(1);
        assertThat(system.getCallbackFailureCount()).isEqualTo(1);
        assertThat(system.stop(Duration.ofSeconds(2))).isTrue();
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> io.tbactors.api.TbActor sneakyIoFailure() throws T {
        throw (T) new IOException("disk gone");
    }
}
