package io.tbactors.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TbActorSystemExtension.class)
class TbActorProbeTest {

    private static final Duration SHORT = Duration.ofMillis(50);

    record Ping(int n) implements TbActorMsg {
    }

    record Pong(int n) implements TbActorMsg {
    }

    record Ask(TbActorRef replyTo, int n) implements TbActorMsg {
    }

    record ToParent(int n) implements TbActorMsg {
    }

    record ToChild(TbActorId child, int n) implements TbActorMsg {
    }

    /** Answers each {@link Ask} with a {@link Pong}, tells its parent about each {@link ToParent}, forwards {@link ToChild}. */
    static final class Responder extends AbstractTbActor {
        private final AtomicInteger childrenCreated;

        Responder(AtomicInteger childrenCreated) {
            this.childrenCreated = childrenCreated;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof Ask ask) {
                ask.replyTo().tell(new Pong(ask.n()));
            } else if (msg instanceof ToParent toParent) {
                ctx.getParentRef().tell(new Pong(toParent.n()));
            } else if (msg instanceof ToChild toChild) {
                ctx.getOrCreateChildActor(toChild.child(), () -> TbTestActorSystem.DEFAULT_DISPATCHER, () -> {
                    childrenCreated.incrementAndGet();
                    return TbActorCreators.of(toChild.child(), () -> new Responder(childrenCreated));
                }).tell(new Ping(toChild.n()));
            } else {
                return false;
            }
            return true;
        }
    }

    @Test
    void expectMessageReturnsTheNextMessageOfTheType() {
        TbActorProbe probe = TbActorProbe.create("p");
        probe.tell(new Ping(1));
        probe.tellWithHighPriority(new Ping(2));

        assertThat(probe.expectMessage(Ping.class, SHORT).n()).isEqualTo(1);
        assertThat(probe.expectReceived(SHORT)).isEqualTo(new TbActorProbe.Received(new Ping(2), true));
        assertThat(probe.pendingCount()).isZero();
    }

    @Test
    void expectMessageFailsNamingWhatArrivedInstead() {
        TbActorProbe probe = TbActorProbe.create("p");
        probe.tell(new Pong(7));

        assertThatThrownBy(() -> probe.expectMessage(Ping.class, SHORT)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("expected a " + Ping.class.getName()).hasMessageContaining("Pong[n=7]");
    }

    @Test
    void expectMessageFailsWhenNothingArrivesInTime() {
        TbActorProbe probe = TbActorProbe.create("p");

        assertThatThrownBy(() -> probe.expectMessage(Ping.class, SHORT)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("none arrived").hasMessageContaining("PT0.05S");
    }

    @Test
    void expectNoMessagePassesOnSilenceAndFailsNamingTheMessage() {
        TbActorProbe probe = TbActorProbe.create("p");
        probe.expectNoMessage(SHORT);
        probe.tell(new Ping(3));

        assertThatThrownBy(() -> probe.expectNoMessage(SHORT)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("expected no message").hasMessageContaining("Ping[n=3]");
    }

    @Test
    void receiveNReturnsMessagesInOrderAndFailsListingTheOnesThatCame() {
        TbActorProbe probe = TbActorProbe.create("p");
        probe.tell(new Ping(1));
        probe.tell(new Pong(2));
        probe.tell(new Ping(3));

        assertThat(probe.receiveN(2, SHORT)).containsExactly(new Ping(1), new Pong(2));
        assertThatThrownBy(() -> probe.receiveN(2, SHORT)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("expected 2 messages").hasMessageContaining("got 1").hasMessageContaining("Ping[n=3]");
        assertThatThrownBy(() -> probe.receiveN(0, SHORT)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aProbeIsTheReplyToOfARequest(TbTestActorSystem actors) {
        TbActorRef responder = actors.createRootActor(TbActorCreators.of("responder", () -> new Responder(new AtomicInteger())));
        TbActorProbe replies = actors.probes().create("replies");

        responder.tell(new Ask(replies, 5));

        assertThat(replies.expectMessage(Pong.class, SHORT).n()).isEqualTo(5);
    }

    @Test
    void aRegisteredProbeIsTheParentOfTheActorUnderTest(TbTestActorSystem actors) {
        TbActorProbe parent = actors.probes().spawn("parent");
        TbActorRef child = actors.createChildActor(TbActorCreators.of("child", () -> new Responder(new AtomicInteger())),
                parent.getActorId());

        child.tell(new ToParent(9));

        assertThat(parent.expectMessage(Pong.class, SHORT).n()).isEqualTo(9);
        assertThat(actors.system().getActor(parent.getActorId())).isNotNull();
    }

    @Test
    void aRegisteredProbeIsTheChildTheActorUnderTestFinds(TbTestActorSystem actors) {
        AtomicInteger created = new AtomicInteger();
        TbActorRef parent = actors.createRootActor(TbActorCreators.of("parent", () -> new Responder(created)));
        TbActorId childId = new TbStringActorId("child");
        TbActorProbe child = actors.probes().spawnChild(childId, parent.getActorId());

        parent.tell(new ToChild(childId, 4));
        child.tell(new Ping(5));

        assertThat(child.receiveN(2, SHORT)).containsExactly(new Ping(4), new Ping(5));
        assertThat(created).as("the real child was never created").hasValue(0);
    }
}
