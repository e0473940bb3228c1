package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.InitFailureStrategy;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorUpdateException;
import io.tbactors.api.TbActorUpdateMsg;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Behaviour a ThingsBoard user relies on when porting actors by changing imports. */
class ThingsBoardPortingTest {

    private final DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder()
            .maxActorInitAttempts(0).build());
    private final TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
    private final TbActorId id = new TbStringActorId("rule-node");

    ThingsBoardPortingTest() {
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
    }

    @AfterEach
    void stopSystem() {
        system.stop();
    }

    /** A rule node's new configuration. */
    record ConfigUpdated(boolean valid) implements TbActorUpdateMsg {
    }

    /** A rule node whose init and updates succeed only with a valid configuration. */
    static final class RuleNodeLike extends ProbeActor {
        final AtomicBoolean configValid;

        RuleNodeLike(Record record, AtomicBoolean configValid) {
            super(record);
            this.configValid = configValid;
        }

        @Override
        void onInit(TbActorCtx ctx, int attempt) throws TbActorException {
            if (!configValid.get()) {
                throw new TbActorException("invalid configuration", null);
            }
        }

        @Override
        void onProcess(TbActorMsg msg) {
            if (msg instanceof ConfigUpdated update && !update.valid()) {
                throw new TbActorUpdateException("cannot apply the update", new IllegalArgumentException("bad config"));
            }
        }

        @Override
        public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
            return InitFailureStrategy.stop();
        }
    }

    @Test
    void zeroMaxInitAttemptsMeansUnlimitedAsInThingsBoard() {
        ProbeActor.Record record = new ProbeActor.Record();
        TbActorRef ref = system.createRootActor("d", creator(id, () -> new ProbeActor(record) {
            @Override
            void onInit(TbActorCtx ctx, int attempt) throws TbActorException {
                if (attempt <= 25) {
                    throw new TbActorException("not yet", null);
                }
            }

            @Override
            public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
                return InitFailureStrategy.retryImmediately();
            }
        }));
        ref.tell(new TestMsgs.Numbered(1, outcomes));
        await().until(() -> outcomes.processed.sum() == 1);
        assertThat(record.inits).hasValue(26);
    }

    @Test
    void anActorWhoseInitFailedIsInitialisedAgainByAHighPriorityUpdate() {
        ProbeActor.Record record = new ProbeActor.Record();
        AtomicBoolean valid = new AtomicBoolean(false);
        TbActorRef ref = system.createRootActor("d", creator(id, () -> new RuleNodeLike(record, valid)));
        await().until(() -> "INIT_FAILED".equals(system.getActorStats(id).orElseThrow().state()));
        ref.tell(new TestMsgs.Numbered(1, outcomes));
        assertThat(outcomes.stoppedCount(TbActorStopReason.INIT_FAILED)).isEqualTo(1);
        // a normal-priority update does not revive it; a high-priority one does
        ref.tell(new ConfigUpdated(true));
        assertThat(system.getActorStats(id).orElseThrow().state()).isEqualTo("INIT_FAILED");

        valid.set(true);
        ref.tellWithHighPriority(new ConfigUpdated(true));
        ref.tell(new TestMsgs.Numbered(2, outcomes));
        await().until(() -> outcomes.processed.sum() == 1);
        assertThat(system.getActor(id)).isSameAs(ref);
        assertThat(record.inits).hasValue(2);
        assertThat(record.destroyedWith).containsExactly(TbActorStopReason.INIT_FAILED);
        assertThat(record.processed).first().isEqualTo(new ConfigUpdated(true));
        assertThat(record.overlaps).hasValue(0);
    }

    @Test
    void anUpdateExceptionFromProcessPutsTheActorBackIntoInitFailed() {
        ProbeActor.Record record = new ProbeActor.Record();
        AtomicBoolean valid = new AtomicBoolean(true);
        TbActorRef ref = system.createRootActor("d", creator(id, () -> new RuleNodeLike(record, valid)));
        ref.tellWithHighPriority(new ConfigUpdated(false));
        await().until(() -> "INIT_FAILED".equals(system.getActorStats(id).orElseThrow().state()));
        assertThat(record.destroyedWith).containsExactly(TbActorStopReason.INIT_FAILED);
        ref.tell(new TestMsgs.Numbered(1, outcomes));
        assertThat(outcomes.stoppedCount(TbActorStopReason.INIT_FAILED)).isEqualTo(1);

        ref.tellWithHighPriority(new ConfigUpdated(true));
        ref.tell(new TestMsgs.Numbered(2, outcomes));
        await().until(() -> outcomes.processed.sum() == 1);
        assertThat(record.inits).hasValue(2);
    }

    @Test
    void createChildActorWithANullParentCreatesARootActor() {
        TbActorRef ref = system.createChildActor("d", TestActors.counting(id), null);
        assertThat(((TbActorCtx) ref).getParentRef()).isNull();
        assertThat(system.getActor(id)).isSameAs(ref);
    }

    @Test
    void broadcastByTypeReachesOnlyChildrenOfThatEntityType() {
        TbActorId parent = new TbStringActorId("tenant");
        system.createRootActor("d", TestActors.counting(parent));
        TbActorId device = new io.tbactors.api.TbEntityActorId("DEVICE", java.util.UUID.randomUUID());
        TbActorId asset = new io.tbactors.api.TbEntityActorId("ASSET", java.util.UUID.randomUUID());
        system.createChildActor("d", TestActors.counting(device), parent);
        system.createChildActor("d", TestActors.counting(asset), parent);
        system.broadcastToChildrenByType(parent, new TestMsgs.Numbered(1, outcomes), "DEVICE");
        await().until(() -> outcomes.processed.sum() == 1);
        assertThat(outcomes.stoppedTotal()).isZero();
    }
}
