package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The padded mailbox ({@link PaddedMailboxes}): where its fields lie, and the same behaviour as the compact one on a
 * real dispatcher. {@code MailboxProtocolLincheckTest} model-checks its protocol ({@code aPaddedMailbox...}).
 */
class PaddedMailboxTest {

    private static final int LINE = 64;

    private final DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder().build());

    @AfterEach
    void stopSystem() {
        system.stop();
    }

    @Test
    void theHeadAndTheTailEachLieOnACacheLineNoOtherFieldShares() throws ReflectiveOperationException {
        long head = offset(PaddedMailboxes.HeadField.class.getDeclaredField("head"));
        long tail = offset(PaddedMailboxes.TailField.class.getDeclaredField("tail"));
        // every field of the compact mailbox's chain, which the senders and the turn read for every message
        long lastShared = 0;
        for (Class<?> c = TbActorMailbox.class; c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    lastShared = Math.max(lastShared, offset(f));
                }
            }
        }
        long end = 0;
        for (Field f : PaddedMailboxes.Padded.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                end = Math.max(end, offset(f) + Integer.BYTES);
            }
        }
        // objects are only 8-byte aligned: 64 bytes apart puts two fields on different lines wherever the object starts
        assertThat(head - lastShared).as("from the shared fields to the head").isGreaterThanOrEqualTo(LINE);
        assertThat(tail - head).as("from the head to the tail").isGreaterThanOrEqualTo(LINE);
        assertThat(end - tail).as("from the tail to the end of the object").isGreaterThanOrEqualTo(LINE);
    }

    @Test
    void actorsCreatedAfterTheSwitchGetThePaddedMailboxAndThoseBeforeKeepTheirs() {
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 1);
        TbActorRef before = system.createRootActor("d", TestActors.counting(new TbStringActorId("before")));
        system.setPaddedMailboxes("d", true);
        TbActorRef after = system.createRootActor("d", TestActors.counting(new TbStringActorId("after")));
        system.setPaddedMailboxes("d", false);
        TbActorRef compactAgain = system.createRootActor("d", TestActors.counting(new TbStringActorId("again")));

        assertThat(before).isNotInstanceOf(PaddedMailboxes.Padded.class);
        assertThat(after).isInstanceOf(PaddedMailboxes.Padded.class);
        assertThat(compactAgain).isNotInstanceOf(PaddedMailboxes.Padded.class);
        assertThat(system.getDispatcher("d").orElseThrow().hasPaddedMailboxes()).isFalse();
    }

    @Test
    void anUnknownDispatcherIsNamedWithTheRegisteredOnes() {
        system.createDispatcher("gateway", DispatcherKind.SINGLE, 1);
        assertThatThrownBy(() -> system.setPaddedMailboxes("nope", true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'nope' is not registered")
                .hasMessageContaining("registered: [gateway]");
    }

    @Test
    void concurrentSendersKeepTheirOrderAndEveryMessageIsProcessedOnce() throws InterruptedException {
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
        system.setPaddedMailboxes("d", true);
        int senders = 3;
        int perSender = 20_000;
        int actors = 4;
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        List<String> violations = new ArrayList<>();
        List<TbActorRef> refs = new ArrayList<>();
        for (int a = 0; a < actors; a++) {
            long[] last = new long[senders];
            Arrays.fill(last, -1);
            refs.add(system.createRootActor("d", creator(new TbStringActorId("a" + a), () -> new TestActors.FnActor(msg -> {
                TestMsgs.Numbered n = (TestMsgs.Numbered) msg;
                if (n.value <= last[n.sender]) {
                    synchronized (violations) {
                        violations.add("sender " + n.sender + ": " + n.value + " after " + last[n.sender]);
                    }
                }
                last[n.sender] = n.value;
            }))));
        }
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            int sender = s;
            Thread t = new Thread(() -> {
                awaitQuietly(start);
                for (int i = 0; i < perSender; i++) {
                    refs.get(i % actors).tell(new TestMsgs.Numbered(sender, i, outcomes));
                }
            });
            t.start();
            threads.add(t);
        }
        start.countDown();
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> outcomes.processed.sum() == (long) senders * perSender);
        assertThat(violations).isEmpty();
        assertThat(outcomes.stoppedTotal()).isZero();
    }

    @Test
    void aStoppedPaddedActorTellsEachWaitingMessageWhyItWasNotProcessed() throws InterruptedException {
        system.createDispatcher("d", DispatcherKind.SINGLE, 1);
        system.setPaddedMailboxes("d", true);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("a"), () -> new TestActors.FnActor(msg -> {
            if (((TestMsgs.Numbered) msg).value == 0) {
                entered.countDown();
                awaitQuietly(gate);
            }
        })));
        ref.tell(new TestMsgs.Numbered(0, outcomes));
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 1; i <= 100; i++) {
            ref.tell(new TestMsgs.Numbered(i, outcomes));
        }
        system.stop(ref.getActorId());
        gate.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> outcomes.accountedFor() == 101);
        assertThat(outcomes.processed.sum()).isEqualTo(1);
        assertThat(outcomes.stoppedCount(TbActorStopReason.STOPPED)).isEqualTo(100);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return where the JVM placed the field in its object, from the start of the object */
    private static long offset(Field field) throws ReflectiveOperationException {
        // sun.misc.Unsafe through reflection: the one public way to read a field's offset, and not for main code
        Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
        Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        Method objectFieldOffset = unsafeClass.getMethod("objectFieldOffset", Field.class);
        return (long) objectFieldOffset.invoke(theUnsafe.get(null), field);
    }
}
