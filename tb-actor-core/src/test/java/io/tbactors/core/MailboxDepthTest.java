package io.tbactors.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The depth of an unbounded mailbox reads the same whether it is counted per message or walked when asked. */
class MailboxDepthTest {

    @ParameterizedTest(name = "countMailboxDepth={0}")
    @ValueSource(booleans = {false, true})
    void anUnboundedMailboxReportsItsWaitingMessagesCountedOrNot(boolean counted) {
        DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder().countMailboxDepth(counted).build());
        CountDownLatch gate = new CountDownLatch(1);
        try {
            system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
            AtomicInteger processed = new AtomicInteger();
            TbActorRef ref = system.createRootActor("d", TestActors.creator(new TbStringActorId("a"), () -> new TestActors.FnActor(msg -> {
                MailboxSemanticsTest.awaitQuietly(gate);
                processed.incrementAndGet();
            })));
            ref.tell(new TestMsgs.Ping());
            await().until(() -> ((TbActorMailbox) ref).pendingMessages() == 0);
            for (int i = 0; i < 7; i++) {
                ref.tell(new TestMsgs.Ping());
            }
            ref.tellWithHighPriority(new TestMsgs.Ping());
            ref.tellWithHighPriority(new TestMsgs.Ping());
            assertThat(((TbActorMailbox) ref).pendingMessages()).isEqualTo(9);
            assertThat(system.getPendingMessages()).isEqualTo(9);
            assertThat(system.getLargestMailboxes(1)).singleElement().satisfies(stats -> assertThat(stats.pendingMessages()).isEqualTo(9));
            gate.countDown();
            await().until(() -> processed.get() == 10);
            assertThat(((TbActorMailbox) ref).pendingMessages()).isZero();
        } finally {
            gate.countDown();
            system.stop();
        }
    }
}
