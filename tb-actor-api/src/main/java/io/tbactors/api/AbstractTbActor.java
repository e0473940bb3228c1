package io.tbactors.api;

/**
 * Base class that keeps the actor's context from {@link #init(TbActorCtx)}.
 */
public abstract class AbstractTbActor implements TbActor {

    /** The context given at init; null before it. */
    protected TbActorCtx ctx;

    @Override
    public void init(TbActorCtx ctx) throws TbActorException {
        this.ctx = ctx;
    }

    /** @return the context given at init, or null before it */
    public TbActorCtx getCtx() {
        return ctx;
    }

    @Override
    public TbActorRef getActorRef() {
        return ctx;
    }
}
