package io.tbactors.kafka.example;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorMsg;
import io.tbactors.kafka.TbEntityMsg;
import io.tbactors.kafka.TbPartitionChangeMsg;

/** The tb-actor-kafka README's root actor: routes entity messages to device actors and drops what it no longer owns. */
class RouterActor extends AbstractTbActor {
    private final ReadingRepository repository;

    RouterActor(ReadingRepository repository) {
        this.repository = repository;
    }

    // example: router
    @Override
    public boolean process(TbActorMsg msg) {
        if (msg instanceof TbEntityMsg entityMsg) {
            if (entityMsg.discardIfObsolete()) {     // its partition was given up meanwhile: the new owner has it
                return true;
            }
            ctx.getOrCreateChildActor(entityMsg.getActorId(), () -> "devices",
                    () -> new DeviceActorCreator(entityMsg.getActorId(), repository)).tell(entityMsg);
            return true;
        }
        if (msg instanceof TbPartitionChangeMsg change) {
            ctx.filterChildren(change::isNotOwned).forEach(ctx::stop);
            return true;
        }
        return false;
    }
    // end example
}
