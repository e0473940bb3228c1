package io.tbactors.core;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.core.observe.DeadLetter;
import io.tbactors.core.observe.DeadLetterListener;
import io.tbactors.core.observe.DeadLetterReason;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fate of messages that are not processed: each is told why ({@code onTbActorStopped}), counted, handed to the
 * listener and published as a dead letter to the subscribers, with a rate-limited log line.
 */
final class DeadLetters {

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);

    private final ActorRuntime runtime;
    private final List<DeadLetterListener> subscribers = new CopyOnWriteArrayList<>();
    private final LongAdder notProcessed = new LongAdder();
    private final LongAdder toldAfterStop = new LongAdder();
    private final LongAdder deadLetters = new LongAdder();
    private final RateLimitedWarning warning;

    DeadLetters(ActorRuntime runtime, long logIntervalNanos) {
        this.runtime = runtime;
        this.warning = new RateLimitedWarning(logIntervalNanos);
    }

    /** A message that will never be processed: told, counted, listened to and published. */
    void notProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason) {
        boolean afterStop = !runtime.isRunning();
        notProcessed.increment();
        if (afterStop) {
            toldAfterStop.increment();
        }
        try {
            msg.onTbActorStopped(reason);
        } catch (Throwable t) {
            runtime.callbackFailed("onTbActorStopped of " + msg.getClass().getName(), target, t);
        }
        if (runtime.listener != null) {
            runtime.listener.onMessageNotProcessed(target, msg, reason, afterStop);
        }
        publish(new DeadLetter(target, msg, DeadLetterReason.of(reason, afterStop)));
    }

    void publish(DeadLetter letter) {
        deadLetters.increment();
        for (DeadLetterListener subscriber : subscribers) {
            try {
                subscriber.onDeadLetter(letter);
            } catch (Throwable t) {
                runtime.callbackFailed("dead-letter listener " + subscriber, letter.target(), t);
            }
        }
        if (log.isInfoEnabled()) {
            long heldBack = warning.tryAcquire();
            if (heldBack >= 0) {
                log.info("Dead letter: {} to [{}] not processed ({}); {} more since the last report",
                        letter.message().getClass().getSimpleName(), letter.target(), letter.reason(), heldBack);
            }
        }
    }

    void subscribe(DeadLetterListener subscriber) {
        subscribers.add(Objects.requireNonNull(subscriber, "deadLetterListener must not be null"));
    }

    void unsubscribe(DeadLetterListener subscriber) {
        subscribers.remove(subscriber);
    }

    long notProcessedCount() {
        return notProcessed.sum();
    }

    long toldAfterStopCount() {
        return toldAfterStop.sum();
    }

    long deadLetterCount() {
        return deadLetters.sum();
    }
}
