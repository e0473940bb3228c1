package io.tbactors.core;

import static io.tbactors.core.TestActors.counting;
import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorNotRegisteredException;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbEntityActorId;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.observe.ActorStats;
import io.tbactors.core.observe.DispatcherStats;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RegistryAndValidationTest {

    private final DefaultTbActorSystem system = new DefaultTbActorSystem(new TbActorSystemSettings(5, 1, 3));
    private final TbStringActorId rootId = new TbStringActorId("root");

    RegistryAndValidationTest() {
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
    }

    @AfterEach
    void stopSystem() {
        system.stop();
    }

    @Test
    void invalidSettingsAreRefusedWithTheValueAndWhatIsAllowed() {
        assertThatThrownBy(() -> new TbActorSystemSettings(0, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("actorThroughput must be >= 1, got 0");
        assertThatThrownBy(() -> new TbActorSystemSettings(5, -2, 1)).hasMessage("schedulerPoolSize must be >= 1, got -2");
        assertThatThrownBy(() -> new TbActorSystemSettings(5, 1, -1))
                .hasMessage("maxActorInitAttempts must be >= 0 (0 = unlimited, as in ThingsBoard), got -1");
        assertThat(new TbActorSystemSettings(5, 1, 0).getMaxActorInitAttempts()).isZero();
        assertThatThrownBy(() -> TbActorSystemSettings.builder().shutdownTimeout(Duration.ZERO).build())
                .hasMessage("shutdownTimeout must be positive, got PT0S");
        assertThat(TbActorSystemSettings.builder().build().getActorThroughput()).isEqualTo(5);
        assertThat(new TbActorSystemSettings(7, 2, 4)).hasToString("TbActorSystemSettings{actorThroughput=7, schedulerPoolSize=2, "
                + "maxActorInitAttempts=4, shutdownTimeout=PT10S, recordWaitTime=false, countMailboxDepth=false}");
    }

    @Test
    void anUnknownDispatcherIsNamedInTheErrorWithTheRegisteredOnes() {
        assertThatThrownBy(() -> system.createRootActor("nope", counting(rootId)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Dispatcher 'nope' is not registered; registered: [d]");
        assertThatThrownBy(() -> system.destroyDispatcher("nope")).hasMessageContaining("'nope' is not registered");
    }

    @Test
    void aDuplicateDispatcherIsRefused() {
        assertThatThrownBy(() -> system.createDispatcher("d", Executors.newSingleThreadExecutor()))
                .hasMessage("Dispatcher 'd' is already registered; destroy it first or pick another name");
        assertThatThrownBy(() -> system.createDispatcher("d", DispatcherKind.SINGLE, 1))
                .hasMessageContaining("already registered");
        assertThatThrownBy(() -> system.createDispatcher(" ", DispatcherKind.SINGLE, 1)).hasMessageContaining("must not be null or blank");
    }

    @Test
    void aCustomExecutorBecomesADispatcherAndCanBeDestroyed() {
        system.createDispatcher("custom", Executors.newFixedThreadPool(2));
        TbActorRef ref = system.createRootActor("custom", counting(rootId));
        assertThat(ref).isNotNull();
        DispatcherStats stats = system.getDispatcherStats().stream().filter(s -> s.name().equals("custom")).findFirst().orElseThrow();
        assertThat(stats.kind()).isEqualTo("custom");
        assertThat(stats.poolSize()).isEqualTo(2);
        system.destroyDispatcher("custom");
        assertThat(system.getDispatcher("custom")).isEmpty();
    }

    @Test
    void aChildOfAnUnknownParentIsRefusedNamingTheParent() {
        TbStringActorId ghost = new TbStringActorId("ghost");
        assertThatThrownBy(() -> system.createChildActor("d", counting(new TbStringActorId("c")), ghost))
                .isInstanceOfSatisfying(TbActorNotRegisteredException.class, e -> assertThat(e.getTarget()).isEqualTo(ghost))
                .hasMessageContaining("[ghost]");
    }

    @Test
    void tellingAnUnknownIdThrowsNamingTheId() {
        TbStringActorId missing = new TbStringActorId("missing");
        assertThatThrownBy(() -> system.tell(missing, new TestMsgs.Ping()))
                .isInstanceOfSatisfying(TbActorNotRegisteredException.class, e -> assertThat(e.getTarget()).isEqualTo(missing))
                .hasMessage("Actor with id [missing] is not registered!");
        assertThatThrownBy(() -> system.tellWithHighPriority(missing, new TestMsgs.Ping()))
                .isInstanceOf(TbActorNotRegisteredException.class);
    }

    @Test
    void nullArgumentsAreRefusedByName() {
        TbActorRef ref = system.createRootActor("d", counting(rootId));
        assertThatThrownBy(() -> ref.tell(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("actor message");
        assertThatThrownBy(() -> system.tell(null, new TestMsgs.Ping())).hasMessageContaining("target");
        assertThatThrownBy(() -> system.createRootActor("d", null)).hasMessageContaining("creator");
        assertThatThrownBy(() -> system.createRootActor("d", creator(null, () -> null))).hasMessageContaining("createActorId()");
        assertThatThrownBy(() -> system.createDispatcher("x", (java.util.concurrent.ExecutorService) null))
                .hasMessageContaining("executor");
        assertThatThrownBy(() -> new DefaultTbActorSystem(null)).hasMessageContaining("settings");
    }

    @Test
    void creatingAnExistingIdReturnsTheExistingActorWithoutCallingTheCreator() {
        TbActorRef first = system.createRootActor("d", counting(rootId));
        TbActorRef second = system.createRootActor("d", creator(rootId, () -> {
            throw new AssertionError("creator must not run for a registered id");
        }));
        assertThat(second).isSameAs(first);
    }

    /** A parent that builds children through its context. */
    static class ParentActor extends TestActors.FnActor {
        ParentActor() {
            super(msg -> { });
        }

        TbActorCtx context() {
            return ctx;
        }

        @Override
        public void init(TbActorCtx ctx) throws TbActorException {
            super.init(ctx);
        }
    }

    @Test
    void childrenAreFoundFilteredAndBroadcastToThroughTheParentsContext() {
        AtomicReference<ParentActor> parentActor = new AtomicReference<>();
        TbActorRef parent = system.createRootActor("d", creator(rootId, () -> {
            parentActor.set(new ParentActor());
            return parentActor.get();
        }));
        await().until(() -> parentActor.get() != null && parentActor.get().context() != null);
        TbActorCtx ctx = parentActor.get().context();
        assertThat(ctx.getSelf()).isEqualTo(rootId);
        assertThat(ctx.getParentRef()).isNull();
        Set<TbActorId> received = ConcurrentHashMap.newKeySet();
        TbEntityActorId device = new TbEntityActorId("DEVICE", UUID.randomUUID());
        TbEntityActorId tenant = new TbEntityActorId("TENANT", UUID.randomUUID());
        TbStringActorId plain = new TbStringActorId("plain");
        for (TbActorId id : new TbActorId[] {device, tenant, plain}) {
            TbActorRef child = ctx.getOrCreateChildActor(id, () -> "d",
                    () -> creator(id, () -> new TestActors.FnActor(msg -> received.add(id))));
            assertThat(child.getActorId()).isEqualTo(id);
        }
        assertThat(ctx.getOrCreateChildActor(new TbStringActorId("never"), () -> "d", () -> counting(plain), () -> false)).isNull();
        assertThat(ctx.filterChildren(id -> true)).containsExactlyInAnyOrder(device, tenant, plain);
        assertThat(system.filterChildren(rootId, id -> "DEVICE".equals(id.getEntityType()))).containsExactly(device);

        ctx.broadcastToChildrenByType(new TestMsgs.Ping(), "DEVICE");
        await().until(() -> received.contains(device));
        assertThat(received).containsExactly(device);
        ctx.broadcastToChildren(new TestMsgs.Ping(), id -> id.equals(plain));
        await().until(() -> received.contains(plain));
        assertThat(received).doesNotContain(tenant);
        ctx.broadcastToChildren(new TestMsgs.Ping(), true);
        await().until(() -> received.contains(tenant));
        received.clear();
        ctx.broadcastToChildren(new TestMsgs.Ping());
        await().until(() -> received.size() == 3);

        assertThat(system.getActorStats(device)).get().extracting(ActorStats::parent).isEqualTo("root");
        assertThat(system.findActorStats(device.toString())).get().extracting(ActorStats::entityType).isEqualTo("DEVICE");
        assertThat(system.getActorStats(rootId)).get().extracting(ActorStats::children).isEqualTo(3);
        assertThat(system.getActorCountsByDispatcherAndType().get("d")).containsEntry("FnActor", 3);
        assertThat(((TbActorCtx) system.getActor(device)).getParentRef()).isSameAs(parent);
    }

    @Test
    void stoppingAParentStopsItsChildrenAndFreesEveryId() {
        system.createRootActor("d", counting(rootId));
        TbStringActorId child = new TbStringActorId("child");
        TbStringActorId grandChild = new TbStringActorId("grand-child");
        system.createChildActor("d", counting(child), rootId);
        system.createChildActor("d", counting(grandChild), child);
        assertThat(system.getActorCount()).isEqualTo(3);
        system.stop(rootId);
        await().until(() -> system.getActorCount() == 0);
        assertThat(system.getActor(rootId)).isNull();
        assertThat(system.getActor(child)).isNull();
        assertThat(system.getActor(grandChild)).isNull();
        assertThat(system.getDispatcherStats().get(0).actors()).isZero();
    }

    @Test
    void aStoppedChildIsRemovedFromItsParent() {
        system.createRootActor("d", counting(rootId));
        TbStringActorId child = new TbStringActorId("child");
        system.createChildActor("d", counting(child), rootId);
        system.stop(child);
        assertThat(system.filterChildren(rootId, id -> true)).isEmpty();
        assertThat(system.filterChildren(new TbStringActorId("unknown"), id -> true)).isEmpty();
        system.broadcastToChildren(new TbStringActorId("unknown"), new TestMsgs.Ping());
    }

    @Test
    void theContextTellsOtherActorsAndItselfAndStopsOthers() {
        AtomicReference<ParentActor> a = new AtomicReference<>();
        system.createRootActor("d", creator(rootId, () -> {
            a.set(new ParentActor());
            return a.get();
        }));
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        TbStringActorId other = new TbStringActorId("other");
        system.createRootActor("d", counting(other));
        await().until(() -> a.get() != null && a.get().context() != null);
        TbActorCtx ctx = a.get().context();
        ctx.tell(other, new TestMsgs.Numbered(1, outcomes));
        ctx.tell(new TestMsgs.Numbered(2, outcomes));
        ctx.tellWithHighPriority(new TestMsgs.Numbered(3, outcomes));
        await().until(() -> outcomes.processed.sum() == 3);
        ctx.stop(other);
        assertThat(system.getActor(other)).isNull();
        TbActorMsg msg = new TestMsgs.Ping();
        assertThatThrownBy(() -> ctx.tell(other, msg)).isInstanceOf(TbActorNotRegisteredException.class);
        system.stop(ctx);
        await().until(() -> system.getActorCount() == 0);
    }
}
