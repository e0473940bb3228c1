package io.tbactors.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ApiExtensionsTest {

    /** A context that implements only the ThingsBoard contract, as a ported implementation would. */
    static final class MinimalCtx implements TbActorCtx {
        final List<TbActorMsg> told = new ArrayList<>();
        final List<Supplier<Boolean>> conditions = new ArrayList<>();

        @Override
        public TbActorId getSelf() {
            return new TbStringActorId("self");
        }

        @Override
        public TbActorRef getParentRef() {
            return null;
        }

        @Override
        public void tell(TbActorId target, TbActorMsg msg) {
            told.add(msg);
        }

        @Override
        public void stop(TbActorId target) {
        }

        @Override
        public TbActorRef getOrCreateChildActor(TbActorId actorId, Supplier<String> dispatcher, Supplier<TbActorCreator> creator,
                                                Supplier<Boolean> createCondition) {
            conditions.add(createCondition);
            return null;
        }

        @Override
        public void broadcastToChildren(TbActorMsg msg) {
        }

        @Override
        public void broadcastToChildren(TbActorMsg msg, boolean highPriority) {
        }

        @Override
        public void broadcastToChildren(TbActorMsg msg, Predicate<TbActorId> childFilter) {
        }

        @Override
        public void broadcastToChildrenByType(TbActorMsg msg, String entityType) {
        }

        @Override
        public List<TbActorId> filterChildren(Predicate<TbActorId> childFilter) {
            return List.of();
        }

        @Override
        public TbActorId getActorId() {
            return getSelf();
        }

        @Override
        public void tell(TbActorMsg actorMsg) {
            told.add(actorMsg);
        }

        @Override
        public void tellWithHighPriority(TbActorMsg actorMsg) {
            told.add(actorMsg);
        }
    }

    @Test
    void aThingsBoardStyleImplementationStillCompilesAndGetsSafeDefaults() {
        MinimalCtx ctx = new MinimalCtx();
        TbActorMsg msg = new TbActorMsg() { };
        assertThat(ctx.tryTell(msg)).isTrue();
        assertThat(ctx.told).containsExactly(msg);
        ctx.getOrCreateChildActor(new TbStringActorId("c"), () -> "d", () -> null);
        assertThat(ctx.conditions.get(0).get()).isTrue();
        assertThatThrownBy(() -> ctx.scheduleOnce(msg, Duration.ZERO)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ctx.schedulePeriodically(msg, Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ctx.setIdleTimeout(Duration.ofSeconds(1))).isInstanceOf(UnsupportedOperationException.class);
        msg.onTbActorStopped(TbActorStopReason.STOPPED);
    }

    @Test
    void mailboxBoundsNeedAPositiveCapacityAndAPolicy() {
        assertThat(TbMailboxBound.rejectNewest(10)).isEqualTo(new TbMailboxBound(10, TbMailboxOverflowPolicy.REJECT_NEWEST));
        assertThat(TbMailboxBound.dropOldest(2).overflowPolicy()).isEqualTo(TbMailboxOverflowPolicy.DROP_OLDEST);
        assertThatThrownBy(() -> new TbMailboxBound(-1, TbMailboxOverflowPolicy.DROP_OLDEST)).hasMessageContaining(">= 1");
        assertThatThrownBy(() -> new TbMailboxBound(1, null)).hasMessageContaining("REJECT_NEWEST or DROP_OLDEST");
    }

    @Test
    void restartIsAThirdProcessFailureStrategy() {
        assertThat(ProcessFailureStrategy.restart().isRestart()).isTrue();
        assertThat(ProcessFailureStrategy.restart().isStop()).isFalse();
        assertThat(ProcessFailureStrategy.resume().isRestart()).isFalse();
        assertThat(ProcessFailureStrategy.restart()).hasToString("restart");
        assertThat(InitFailureStrategy.stop()).hasToString("stop");
        assertThat(InitFailureStrategy.retryImmediately()).hasToString("retryImmediately");
    }

    @Test
    void aStoppedExceptionNamesTargetAndReason() {
        TbActorId id = new TbStringActorId("gone");
        TbActorStoppedException e = new TbActorStoppedException(id, TbActorStopReason.IDLE, "gone idle");
        assertThat(e.getTarget()).isEqualTo(id);
        assertThat(e.getReason()).isEqualTo(TbActorStopReason.IDLE);
        assertThat(e).hasMessage("gone idle");
    }

    @Test
    void aCreatorMadeOfAnIdAndAConstructorCallMakesANewActorEachTime() {
        TbActorId id = new TbStringActorId("made");
        TbActorCreator creator = TbActorCreator.of(id, () -> new AbstractTbActor() {
            @Override
            public boolean process(TbActorMsg msg) {
                return true;
            }
        });
        assertThat(creator.createActorId()).isSameAs(id);
        assertThat(creator.createActor()).isNotSameAs(creator.createActor());
        assertThat(creator.getMailboxBound()).isNull();
        assertThat(creator).hasToString("TbActorCreator{made}");
        assertThatThrownBy(() -> TbActorCreator.of(null, () -> null)).hasMessageContaining("actorId");
        assertThatThrownBy(() -> TbActorCreator.of(id, null)).hasMessageContaining("supplier");
    }

    @Test
    void creatorsHaveNoMailboxBoundUnlessTheyChooseOne() {
        TbActorCreator creator = new TbActorCreator() {
            @Override
            public TbActorId createActorId() {
                return new TbStringActorId("x");
            }

            @Override
            public TbActor createActor() {
                return null;
            }
        };
        assertThat(creator.getMailboxBound()).isNull();
        assertThat(creator.createActorId()).hasToString("x");
        assertThat(creator.createActor()).isNull();
    }
}
