package io.tbactors.core;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.api.TbTimer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The {@link TbActorCtx} an actor is given: its own mailbox, seen from inside. Each method hands over to the part of
 * the runtime it belongs to: the registry ({@link ActorRegistry}) for telling, stopping and creating other actors,
 * {@link ActorChildren} for the children, {@link ActorTimers} for timers and passivation.
 */
abstract sealed class MailboxContext extends MailboxStatus implements TbActorCtx permits TbActorMailbox {

    private static final long serialVersionUID = 1L;

    final ActorRuntime runtime;
    final TbActorId selfId;
    final TbActorMailbox parent;

    MailboxContext(ActorRuntime runtime, TbActorId selfId, TbActorMailbox parent, TbMailboxBound bound) {
        super(bound, runtime.countMailboxDepth);
        this.runtime = runtime;
        this.selfId = selfId;
        this.parent = parent;
    }

    private TbActorMailbox self() {
        return (TbActorMailbox) this;
    }

    @Override
    public TbActorId getSelf() {
        return selfId;
    }

    @Override
    public TbActorRef getParentRef() {
        return parent;
    }

    @Override
    public void tell(TbActorId target, TbActorMsg msg) {
        runtime.actors.tell(target, msg, false);
    }

    @Override
    public void stop(TbActorId target) {
        runtime.actors.stop(target);
    }

    @Override
    public TbActorRef getOrCreateChildActor(TbActorId actorId, Supplier<String> dispatcherSupplier,
                                            Supplier<TbActorCreator> creator, Supplier<Boolean> createCondition) {
        Objects.requireNonNull(actorId, "actorId must not be null");
        TbActorRef existing = runtime.actors.get(actorId);
        if (existing != null) {
            return existing;
        }
        if (!Boolean.TRUE.equals(createCondition.get())) {
            return null;
        }
        return runtime.actors.create(dispatcherSupplier.get(), creator.get(), selfId);
    }

    @Override
    public void broadcastToChildren(TbActorMsg msg) {
        ActorChildren.broadcast(runtime, selfId, id -> true, msg, false);
    }

    @Override
    public void broadcastToChildren(TbActorMsg msg, boolean highPriority) {
        ActorChildren.broadcast(runtime, selfId, id -> true, msg, highPriority);
    }

    @Override
    public void broadcastToChildren(TbActorMsg msg, Predicate<TbActorId> childFilter) {
        ActorChildren.broadcast(runtime, selfId, Objects.requireNonNull(childFilter, "childFilter must not be null"), msg, false);
    }

    @Override
    public void broadcastToChildrenByType(TbActorMsg msg, String entityType) {
        Objects.requireNonNull(entityType, "entityType must not be null");
        ActorChildren.broadcast(runtime, selfId, id -> entityType.equals(id.getEntityType()), msg, false);
    }

    @Override
    public List<TbActorId> filterChildren(Predicate<TbActorId> childFilter) {
        return ActorChildren.filter(runtime, selfId, childFilter);
    }

    @Override
    public TbTimer scheduleOnce(TbActorMsg msg, Duration delay) {
        return ActorTimers.schedule(self(), msg, delay, null);
    }

    @Override
    public TbTimer schedulePeriodically(TbActorMsg msg, Duration initialDelay, Duration period) {
        Objects.requireNonNull(period, "period must not be null");
        return ActorTimers.schedule(self(), msg, initialDelay, period);
    }

    @Override
    public void setIdleTimeout(Duration idleTimeout) {
        ActorTimers.setIdleTimeout(self(), idleTimeout);
    }
}
