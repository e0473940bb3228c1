package io.tbactors.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ManualDispatcherTest {

    @RegisterExtension
    final TbActorSystemExtension extension = TbActorSystemExtension.manual();

    record Note(String text) implements TbActorMsg {
    }

    record Tracked(List<String> stopped) implements TbActorMsg {
        @Override
        public void onTbActorStopped(TbActorStopReason reason) {
            stopped.add(reason.name());
        }
    }

    private static TbActorRef recorder(TbTestActorSystem actors, String name, List<String> log) {
        return actors.createRootActor(TbActorCreators.of(name, () -> new AbstractTbActor() {
            @Override
            public boolean process(TbActorMsg msg) {
                log.add(name + ":" + (msg instanceof Note note ? note.text() : msg.getClass().getSimpleName()));
                return true;
            }
        }));
    }

    @Test
    void turnsWaitUntilTheTestRunsThemOneAtATime(TbTestActorSystem actors, ManualDispatcher dispatcher) {
        List<String> log = new CopyOnWriteArrayList<>();
        TbActorRef a = recorder(actors, "a", log);
        TbActorRef b = recorder(actors, "b", log);
        actors.runUntilIdle();

        b.tell(new Note("1"));
        a.tell(new Note("2"));
        assertThat(log).isEmpty();
        assertThat(dispatcher.pendingTurns()).isEqualTo(2);

        assertThat(dispatcher.runNext()).isTrue();
        assertThat(log).containsExactly("b:1");
        assertThat(dispatcher.runUntilIdle()).isEqualTo(1);
        assertThat(log).containsExactly("b:1", "a:2");
        assertThat(dispatcher.runNext()).isFalse();
    }

    @Test
    void stoppingRunsTheDestroyTurnsAndLosesNoWaitingMessage(TbTestActorSystem actors) {
        List<String> log = new CopyOnWriteArrayList<>();
        TbActorRef a = recorder(actors, "a", log);
        actors.runUntilIdle();
        // when the stop wins the race, the message is told STOPPED: a dead letter this test means
        actors.allowDeadLetters();
        List<String> stopped = new CopyOnWriteArrayList<>();
        a.tell(new Tracked(stopped));

        assertThat(actors.stop()).isTrue();

        // the queued turn and the stop race on purpose: the message is processed or told STOPPED, exactly once
        assertThat(log.size() + stopped.size()).isEqualTo(1);
        assertThat(stopped).isSubsetOf("STOPPED");
        assertThat(actors.system().getActorCount()).isZero();
    }
}
