package io.tbactors.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.observe.TbActorSystemListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompositeTbActorSystemListenerTest {

    /** Writes each event it receives, prefixed by its name. */
    private record Recorder(String name, List<String> events) implements TbActorSystemListener {
        @Override
        public void onMessageProcessed(String dispatcher, String actorType, long waitNanos, long processNanos, boolean failed) {
            events.add(name + ":processed " + dispatcher + " " + actorType + " " + waitNanos + " " + processNanos + " " + failed);
        }

        @Override
        public void onInitFailure(TbActorId actorId, String dispatcher, String actorType, int attempt, Throwable cause) {
            events.add(name + ":init-failure " + actorId + " " + attempt + " " + cause.getMessage());
        }

        @Override
        public void onActorCreated(String dispatcher, String actorType) {
            events.add(name + ":created " + actorType);
        }

        @Override
        public void onActorDestroyed(String dispatcher, String actorType, TbActorStopReason reason) {
            events.add(name + ":destroyed " + actorType + " " + reason);
        }

        @Override
        public void onSlowProcessing(String dispatcher, String actorType, long processNanos) {
            events.add(name + ":slow " + actorType + " " + processNanos);
        }

        @Override
        public void onActorRestarted(String dispatcher, String actorType) {
            events.add(name + ":restarted " + actorType);
        }

        @Override
        public void onTryTellRefused(String dispatcher, String actorType) {
            events.add(name + ":refused " + actorType);
        }

        @Override
        public void onMessageNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason, boolean afterSystemStop) {
            events.add(name + ":not-processed " + target + " " + reason + " " + afterSystemStop);
        }
    }

    @Test
    void noListenersIsTheNoopListenerAndOneIsItself() {
        Recorder only = new Recorder("a", new ArrayList<>());

        assertThat(CompositeTbActorSystemListener.of(List.of())).isSameAs(TbActorSystemListener.NOOP);
        assertThat(CompositeTbActorSystemListener.of(List.of(only))).isSameAs(only);
    }

    @Test
    void everyEventReachesEveryListenerInOrder() {
        List<String> events = new ArrayList<>();
        TbActorSystemListener composite = CompositeTbActorSystemListener.of(
                List.of(new Recorder("a", events), new Recorder("b", events)));
        TbActorId id = new TbStringActorId("x");

        composite.onActorCreated("d", "T");
        composite.onMessageProcessed("d", "T", 1, 2, false);
        composite.onInitFailure(id, "d", "T", 3, new IllegalStateException("boom"));
        composite.onMessageNotProcessed(id, new TbActorMsg() { }, TbActorStopReason.INIT_FAILED, true);
        composite.onSlowProcessing("d", "T", 9);
        composite.onActorRestarted("d", "T");
        composite.onTryTellRefused("d", "T");
        composite.onActorDestroyed("d", "T", TbActorStopReason.STOPPED);

        assertThat(events).containsExactly(
                "a:created T", "b:created T",
                "a:processed d T 1 2 false", "b:processed d T 1 2 false",
                "a:init-failure x 3 boom", "b:init-failure x 3 boom",
                "a:not-processed x INIT_FAILED true", "b:not-processed x INIT_FAILED true",
                "a:slow T 9", "b:slow T 9",
                "a:restarted T", "b:restarted T",
                "a:refused T", "b:refused T",
                "a:destroyed T STOPPED", "b:destroyed T STOPPED");
    }
}
