package io.tbactors.testkit;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.core.observe.TbMessageFateObserver;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Counts, per actor and message instance, the tells the runtime has not yet settled: a tell adds one, its fate
 * (processed, not processed and told why, handed back, withdrawn) takes one away. What is left after the system
 * stopped was lost. A fate with no tell to match is a message settled twice. Then it passes each event on to the
 * observer the test's own settings gave, if any.
 */
final class MessageLedger implements TbMessageFateObserver {

    /** A message instance told to one actor: the same instance told to two actors is two entries. */
    private record Tell(TbActorId target, TbActorMsg message) {
        @Override
        public boolean equals(@Nullable Object other) {
            return other instanceof Tell tell && tell.target.equals(target) && tell.message == message;
        }

        @Override
        public int hashCode() {
            return 31 * target.hashCode() + System.identityHashCode(message);
        }
    }

    private final Map<Tell, Integer> unsettled = new ConcurrentHashMap<>();
    private final List<String> settledTwice = new ArrayList<>();
    private final @Nullable TbMessageFateObserver next;

    MessageLedger(@Nullable TbMessageFateObserver next) {
        this.next = next;
    }

    @Override
    public void onTold(TbActorId target, TbActorMsg msg) {
        unsettled.merge(new Tell(target, msg), 1, Integer::sum);
        if (next != null) {
            next.onTold(target, msg);
        }
    }

    @Override
    public void onProcessed(TbActorId target, TbActorMsg msg) {
        settle(target, msg, "processed");
        if (next != null) {
            next.onProcessed(target, msg);
        }
    }

    @Override
    public void onNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason) {
        settle(target, msg, "told " + reason);
        if (next != null) {
            next.onNotProcessed(target, msg, reason);
        }
    }

    @Override
    public void onHandedBack(TbActorId target, TbActorMsg msg) {
        settle(target, msg, "handed back");
        if (next != null) {
            next.onHandedBack(target, msg);
        }
    }

    @Override
    public void onWithdrawn(TbActorId target, TbActorMsg msg) {
        settle(target, msg, "withdrawn");
        if (next != null) {
            next.onWithdrawn(target, msg);
        }
    }

    private void settle(TbActorId target, TbActorMsg msg, String fate) {
        boolean[] matched = new boolean[1];
        unsettled.computeIfPresent(new Tell(target, msg), (tell, count) -> {
            matched[0] = true;
            return count == 1 ? null : count - 1;
        });
        if (!matched[0]) {
            synchronized (settledTwice) {
                settledTwice.add(msg.getClass().getSimpleName() + " to " + target + " (" + fate + ")");
            }
        }
    }

    /** @return tells not settled yet, most repeated first */
    List<LostMessage> unsettled() {
        List<LostMessage> open = new ArrayList<>();
        unsettled.forEach((tell, count) -> open.add(new LostMessage(tell.target(), tell.message(), count)));
        open.sort(Comparator.comparingInt(LostMessage::tells).reversed().thenComparing(LostMessage::toString));
        return open;
    }

    /** @return fates that matched no tell: a message processed or told twice */
    List<String> settledTwice() {
        synchronized (settledTwice) {
            return List.copyOf(settledTwice);
        }
    }
}
