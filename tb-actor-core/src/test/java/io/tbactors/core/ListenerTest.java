package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.observe.TbActorSystemListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class ListenerTest {

    /** Records what the runtime reports. */
    static final class RecordingListener implements TbActorSystemListener {
        final LongAdder processed = new LongAdder();
        final LongAdder failed = new LongAdder();
        final AtomicLong maxWait = new AtomicLong(-2);
        final AtomicLong maxProcess = new AtomicLong();
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void onMessageProcessed(String dispatcher, String actorType, long waitNanos, long processNanos, boolean fail) {
            processed.increment();
            if (fail) {
                failed.increment();
            }
            maxWait.accumulateAndGet(waitNanos, Math::max);
            maxProcess.accumulateAndGet(processNanos, Math::max);
        }

        @Override
        public void onInitFailure(TbActorId actorId, String dispatcher, String actorType, int attempt, Throwable cause) {
            events.add("init-failure " + actorId + " " + attempt);
        }

        @Override
        public void onActorCreated(String dispatcher, String actorType) {
            events.add("created " + dispatcher + " " + actorType);
        }

        @Override
        public void onActorDestroyed(String dispatcher, String actorType, TbActorStopReason reason) {
            events.add("destroyed " + actorType + " " + reason);
        }

        @Override
        public void onMessageNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason, boolean afterSystemStop) {
            events.add("not-processed " + target + " " + reason + " " + afterSystemStop);
        }
    }

    /** A named actor class so the reported type is predictable. */
    static class SlowActor extends TestActors.FnActor {
        SlowActor() {
            super(msg -> {
                LockSupport.parkNanos(2_000_000);
                if (msg instanceof TestMsgs.Numbered n && n.value < 0) {
                    throw new IllegalArgumentException("negative");
                }
            });
        }
    }

    @Test
    void theListenerSeesProcessingTimesWaitTimesFailuresAndLifecycle() {
        RecordingListener listener = new RecordingListener();
        DefaultTbActorSystem system = new DefaultTbActorSystem(
                TbActorSystemSettings.builder().recordWaitTime(true).maxActorInitAttempts(2).build(), listener);
        system.createDispatcher("d", DispatcherKind.SINGLE, 1);
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("slow"), SlowActor::new));
        for (int i = 0; i < 5; i++) {
            ref.tell(new TestMsgs.Numbered(i, outcomes));
        }
        ref.tell(new TestMsgs.Numbered(-1, outcomes));
        await().until(() -> listener.processed.sum() == 6);
        assertThat(listener.failed.sum()).isEqualTo(1);
        assertThat(listener.maxProcess.get()).isGreaterThanOrEqualTo(2_000_000);
        assertThat(listener.maxWait.get()).as("the last message waited behind four slow ones").isGreaterThanOrEqualTo(4 * 2_000_000);
        assertThat(listener.events).contains("created d SlowActor");

        system.createRootActor("d", creator(new TbStringActorId("bad"), () -> new TestActors.FnActor(m -> { }) {
            @Override
            public void init(TbActorCtx ctx) throws TbActorException {
                throw new TbActorException("no", null);
            }

            @Override
            public io.tbactors.api.InitFailureStrategy onInitFailure(int attempt, Throwable t) {
                return io.tbactors.api.InitFailureStrategy.retryImmediately();
            }
        }));
        await().until(() -> listener.events.contains("init-failure bad 2"));
        system.stop();
        ref.tell(new TestMsgs.Ping());
        assertThat(listener.events).contains("destroyed SlowActor STOPPED", "not-processed slow STOPPED true");
    }

    @Test
    void aNullListenerIsRefused() {
        assertThatThrownBy(() -> new DefaultTbActorSystem(new TbActorSystemSettings(5, 1, 1), null))
                .hasMessageContaining("TbActorSystemListener.NOOP");
    }
}
