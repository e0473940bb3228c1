package io.tbactors.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.InitFailureStrategy;
import io.tbactors.api.ProcessFailureStrategy;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.DefaultTbActorSystem;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Timers, init retries, restart backoff and ask timeouts on the manual clock, with turns on the test's thread. */
@ExtendWith(TbActorSystemExtension.class)
class DeterministicModeTest {

    record Tick(String name) implements TbActorMsg {
    }

    record Boom() implements TbActorMsg {
    }

    record Start(Duration delay) implements TbActorMsg {
    }

    /** Records what it processes; on {@link Start} sets a timer that tells it a {@link Tick}. */
    static final class TimerActor extends AbstractTbActor {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof Start start) {
                ctx.scheduleOnce(new Tick("timer"), start.delay());
            } else if (msg instanceof Tick tick) {
                seen.add(tick.name());
            } else {
                return false;
            }
            return true;
        }
    }

    @Test
    void aTimerFiresExactlyWhenTheClockReachesItsDelay(TbTestActorSystem actors) {
        TimerActor actor = new TimerActor();
        TbActorRef ref = actors.createRootActor(TbActorCreators.of("timer", () -> actor));

        ref.tell(new Start(Duration.ofSeconds(10)));
        actors.advance(Duration.ofMillis(9_999));
        assertThat(actor.seen).isEmpty();
        actors.advance(Duration.ofMillis(1));

        assertThat(actor.seen).containsExactly("timer");
        assertThat(actors.scheduler().now()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void initRetriesFollowTheActorsDelaysOnTheManualClock(TbTestActorSystem actors) {
        // example: declare-failure
        actors.expectFailure(TbActorException.class);   // the test fails if no such failure happened
        // end example
        AtomicInteger attempts = new AtomicInteger();
        TbActorRef ref = actors.createRootActor(TbActorCreators.of("flaky", () -> new AbstractTbActor() {
            @Override
            public void init(TbActorCtx ctx) throws TbActorException {
                super.init(ctx);
                if (attempts.incrementAndGet() < 3) {
                    throw new TbActorException("database down", null);
                }
            }

            @Override
            public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
                return InitFailureStrategy.retryWithDelay(1_000L * attempt);
            }

            @Override
            public boolean process(TbActorMsg msg) {
                return true;
            }
        }));
        assertThat(attempts).hasValue(1);

        actors.advance(Duration.ofMillis(999));
        assertThat(attempts).as("first retry after 1 s").hasValue(1);
        actors.advance(Duration.ofMillis(1));
        assertThat(attempts).hasValue(2);
        actors.advance(Duration.ofMillis(1_999));
        assertThat(attempts).as("second retry 2 s later").hasValue(2);
        actors.advance(Duration.ofMillis(1));
        assertThat(attempts).hasValue(3);
        assertThat(ref.getActorId()).isEqualTo(new TbStringActorId("flaky"));
    }

    @Test
    void restartsWaitTheirBackoffOnTheManualClock() {
        try (TbTestActorSystem actors = TbTestActorSystem.builder()
                .settings(settings -> settings.restartBackoff(Duration.ofSeconds(1)).maxRestarts(5)).build()) {
            AtomicInteger inits = new AtomicInteger();
            TbActorRef ref = actors.createRootActor(TbActorCreators.of("restarting", () -> new AbstractTbActor() {
                @Override
                public void init(TbActorCtx ctx) throws TbActorException {
                    super.init(ctx);
                    inits.incrementAndGet();
                }

                @Override
                public ProcessFailureStrategy onProcessFailure(TbActorMsg msg, Throwable t) {
                    return ProcessFailureStrategy.restart();
                }

                @Override
                public boolean process(TbActorMsg msg) {
                    throw new IllegalStateException("boom");
                }
            }));
            ref.tell(new Boom());
            assertThat(inits).as("the restart waits for its backoff").hasValue(1);

            actors.advance(Duration.ofMillis(999));
            assertThat(inits).hasValue(1);
            actors.advance(Duration.ofMillis(1));
            assertThat(inits).hasValue(2);
        }
    }

    record Passivated(TbActorStopReason reason) implements TbActorMsg {
    }

    @Test
    void anIdleActorIsPassivatedWhenTheClockPassesItsIdleTimeout(TbTestActorSystem actors) {
        TbActorProbe parent = actors.probes().spawn("parent");
        TbActorRef idle = actors.createChildActor(TbActorCreators.of("idle", () -> new AbstractTbActor() {
            @Override
            public void init(TbActorCtx ctx) throws TbActorException {
                super.init(ctx);
                ctx.setIdleTimeout(Duration.ofMinutes(1));
            }

            @Override
            public void destroy(TbActorStopReason reason, Throwable cause) {
                ctx.getParentRef().tell(new Passivated(reason));
            }

            @Override
            public boolean process(TbActorMsg msg) {
                return true;
            }
        }), parent.getActorId());

        actors.advance(Duration.ofSeconds(50));
        idle.tell(new Tick("activity"));
        actors.advance(Duration.ofSeconds(50));
        parent.expectNoMessage(Duration.ZERO);
        assertThat(actors.system().getActor(idle.getActorId())).as("a message restarted the idle period").isNotNull();
        actors.advance(Duration.ofSeconds(12));

        assertThat(parent.expectMessage(Passivated.class, Duration.ZERO).reason()).isEqualTo(TbActorStopReason.IDLE);
        assertThat(actors.system().getActor(idle.getActorId())).isNull();
        assertThat(actors.system().getPassivatedCount()).isEqualTo(1);
    }

    @Test
    void anAskTimesOutWhenTheClockPassesItsTimeout(DefaultTbActorSystem system, TbTestActorSystem actors) {
        TbActorRef silent = actors.createRootActor(TbActorCreators.of("silent", () -> new AbstractTbActor() {
            @Override
            public boolean process(TbActorMsg msg) {
                return true;
            }
        }));
        CompletableFuture<TbActorMsg> reply = system.ask(silent.getActorId(), replyTo -> new Tick("question"), Duration.ofSeconds(5));

        actors.advance(Duration.ofMillis(4_999));
        assertThat(reply).isNotDone();
        actors.advance(Duration.ofMillis(1));

        assertThat(reply).isCompletedExceptionally();
        assertThatThrownBy(reply::get).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
    }

    @Test
    void aPeriodicTaskThatThrowsStaysScheduledAndItsFailureIsKept(ManualScheduler scheduler) {
        AtomicInteger runs = new AtomicInteger();
        scheduler.scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            throw new IllegalStateException("run " + runs.get());
        }, 1, 1, TimeUnit.SECONDS);

        assertThat(scheduler.advance(Duration.ofSeconds(3))).isEqualTo(3);

        assertThat(runs).hasValue(3);
        assertThat(scheduler.failures()).hasSize(3).last().hasToString(new IllegalStateException("run 3").toString());
        assertThat(scheduler.nextDueIn()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void tasksRunInDueOrderAndACancelledOneNeverRuns(ManualScheduler scheduler) {
        List<String> order = new CopyOnWriteArrayList<>();
        scheduler.schedule(() -> order.add("b"), 2, TimeUnit.SECONDS);
        scheduler.schedule(() -> order.add("a"), 1, TimeUnit.SECONDS);
        scheduler.schedule(() -> order.add("c"), 3, TimeUnit.SECONDS).cancel(false);
        scheduler.schedule(() -> order.add("a2"), 1, TimeUnit.SECONDS);

        assertThat(scheduler.pendingTasks()).isEqualTo(3);
        scheduler.advance(Duration.ofSeconds(5));

        assertThat(order).containsExactly("a", "a2", "b");
        assertThatThrownBy(() -> scheduler.advance(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only moves forward");
    }

    @Test
    void theRealClockModeHasNoManualScheduler() {
        try (TbTestActorSystem actors = TbTestActorSystem.threads()) {
            assertThatThrownBy(actors::scheduler).isInstanceOf(IllegalStateException.class).hasMessageContaining("real clock");
            assertThatThrownBy(actors::dispatcher).isInstanceOf(IllegalStateException.class).hasMessageContaining("MANUAL");
        }
    }
}
