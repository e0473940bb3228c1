package io.tbactors.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The probe's Pekko-style expectations, default timeouts and their dilation, watching and replying. */
class ExpectationsTest {

    @RegisterExtension
    final TbActorSystemExtension actors = TbActorSystemExtension.withThreads();

    record Reading(String key, int value) implements TbActorMsg {
    }

    record Question(TbActorRef replyTo, int n) implements TbActorMsg {
    }

    record Answer(int n) implements TbActorMsg {
    }

    record Stop() implements TbActorMsg {
    }

    /** Asks the probe a question and forwards the answer to it, doubled; stops itself on {@link Stop}. */
    static final class Asker extends AbstractTbActor {
        private final TbActorProbe probe;

        Asker(TbActorProbe probe) {
            this.probe = probe;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof Reading reading) {
                probe.tell(new Question(ctx, reading.value()));
            } else if (msg instanceof Answer answer) {
                probe.tell(new Answer(answer.n() * 2));
            } else if (msg instanceof Stop) {
                ctx.stop(ctx.getSelf());
            }
            return true;
        }
    }

    @AfterEach
    void clearProperties() {
        System.clearProperty(TbTestKitSettings.TIME_FACTOR);
        System.clearProperty(TbTestKitSettings.DEFAULT_TIMEOUT);
        System.clearProperty(TbTestKitSettings.NO_MESSAGE);
    }

    @Test
    void expectationsByValueByClassAndByPredicateUseTheDefaultTimeout(TbTestActorSystem kit) {
        TbActorProbe probe = kit.probes().create("probe");
        probe.tell(new Reading("t", 1));
        probe.tell(new Reading("t", 2));
        probe.tell(new Reading("h", 3));

        assertThat(probe.expectMessage(new Reading("t", 1))).isEqualTo(new Reading("t", 1));
        assertThat(probe.expectMessage(Reading.class).value()).isEqualTo(2);
        assertThat(probe.expectMessage(Reading.class, r -> r.key().equals("h")).value()).isEqualTo(3);
        probe.expectNoMessage();

        probe.tell(new Reading("t", 4));
        assertThatThrownBy(() -> probe.expectMessage(new Reading("t", 5)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Reading[key=t, value=5]").hasMessageContaining("value=4");
        probe.tell(new Reading("t", 6));
        assertThatThrownBy(() -> probe.expectMessage(Reading.class, r -> r.value() > 10))
                .isInstanceOf(AssertionError.class).hasMessageContaining("does not satisfy");
    }

    @Test
    void fishForMessageSkipsToTheOneThatMatchesAndNamesWhatItSkippedWhenNoneDoes(TbTestActorSystem kit) {
        TbActorProbe probe = kit.probes().create("probe");
        for (int i = 1; i <= 5; i++) {
            probe.tell(new Reading("t", i));
        }
        assertThat(probe.fishForMessage(m -> m instanceof Reading r && r.value() == 4)).isEqualTo(new Reading("t", 4));
        assertThat(probe.expectMessage(Reading.class).value()).isEqualTo(5);

        probe.tell(new Reading("t", 6));
        assertThatThrownBy(() -> probe.fishForMessage(m -> false, Duration.ofMillis(50)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("skipped").hasMessageContaining("value=6");
    }

    @Test
    void receiveWhileTakesMatchingMessagesAndLeavesTheFirstOtherOne(TbTestActorSystem kit) {
        TbActorProbe probe = kit.probes().create("probe");
        probe.tell(new Reading("t", 1));
        probe.tell(new Reading("t", 2));
        probe.tell(new Answer(3));
        probe.tell(new Reading("t", 4));

        List<TbActorMsg> readings = probe.receiveWhile(Duration.ofSeconds(5), Duration.ofMillis(200), m -> m instanceof Reading);
        assertThat(readings).containsExactly(new Reading("t", 1), new Reading("t", 2));
        assertThat(probe.expectMessage(Answer.class).n()).isEqualTo(3);
        assertThat(probe.receiveN(1)).containsExactly(new Reading("t", 4));
        assertThat(probe.receiveWhile(Duration.ofMillis(100), Duration.ofMillis(20), m -> true)).isEmpty();
    }

    @Test
    void replyAnswersThroughTheReferenceTheLastMessageCarries(TbTestActorSystem kit) {
        TbActorProbe probe = kit.probes().create("probe");
        TbActorRef asker = kit.createRootActor(TbActorCreators.of(new TbStringActorId("asker"), () -> new Asker(probe)));
        asker.tell(new Reading("t", 21));

        assertThat(probe.expectMessage(Question.class).n()).isEqualTo(21);
        probe.reply(new Answer(21));
        assertThat(probe.expectMessage(new Answer(42))).isNotNull();

        // the last message, Answer(42), carries no reference to reply to
        assertThatThrownBy(() -> probe.reply(new Answer(0))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("carries no TbActorRef");
    }

    @Test
    void expectTerminatedWaitsForTheActorToStopAndSaysWhy(TbTestActorSystem kit) {
        TbActorProbe probe = kit.probes().create("probe");
        TbActorRef asker = kit.createRootActor(TbActorCreators.of(new TbStringActorId("asker"), () -> new Asker(probe)));
        assertThatThrownBy(() -> probe.expectTerminated(asker, Duration.ofMillis(50)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("still runs");

        asker.tell(new Stop());
        assertThat(probe.expectTerminated(asker)).isIn(TbActorStopReason.STOPPED, null);
        assertThat(probe.expectTerminated(asker)).as("an actor already gone counts as stopped").isNull();
        assertThatThrownBy(() -> TbActorProbe.create("alone").expectTerminated(asker))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("TbTestActorSystem.probes()");
    }

    @Test
    void theDefaultTimeoutsFollowTheirPropertiesAndTheTimeFactor() {
        assertThat(TbTestKitSettings.defaultTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(TbTestKitSettings.noMessageDuration()).isEqualTo(Duration.ofMillis(100));
        System.setProperty(TbTestKitSettings.TIME_FACTOR, "2.5");
        System.setProperty(TbTestKitSettings.DEFAULT_TIMEOUT, "400");
        assertThat(TbTestKitSettings.defaultTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(TbTestKitSettings.noMessageDuration()).isEqualTo(Duration.ofMillis(250));
        assertThat(TbTestKitSettings.dilated(Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(5));

        TbActorProbe probe = TbActorProbe.create("probe");
        long start = System.nanoTime();
        assertThatThrownBy(() -> probe.expectMessage(Reading.class)).hasMessageContaining("within PT1S");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));

        System.setProperty(TbTestKitSettings.TIME_FACTOR, "-1");
        assertThatThrownBy(TbTestKitSettings::timeFactor).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(TbTestKitSettings.TIME_FACTOR).hasMessageContaining("positive number");
        System.setProperty(TbTestKitSettings.TIME_FACTOR, "1");
        System.setProperty(TbTestKitSettings.DEFAULT_TIMEOUT, "3s");
        assertThatThrownBy(TbTestKitSettings::defaultTimeout).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(TbTestKitSettings.DEFAULT_TIMEOUT).hasMessageContaining("milliseconds");
    }
}
