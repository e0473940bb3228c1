package io.tbactors.kafka.example;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.kafka.TbEntityMsg;
import io.tbactors.kafka.TbOwnershipEpoch;

/** The device actors of the tb-actor-kafka README: each stores its entity's payloads, at its write checking ownership. */
record DeviceActorCreator(TbActorId id, ReadingRepository repository) implements TbActorCreator {

    @Override
    public TbActorId createActorId() {
        return id;
    }

    @Override
    public TbActor createActor() {
        return new AbstractTbActor() {
            @Override
            public boolean process(TbActorMsg msg) {
                if (msg instanceof TbEntityMsg entityMsg) {
                    store(entityMsg);
                    return true;
                }
                return false;
            }
        };
    }

    private void store(TbEntityMsg entityMsg) {
        // example: epoch
        TbOwnershipEpoch epoch = entityMsg.getOwnershipEpoch();
        // ... the work ...
        if (!epoch.isCurrent()) {
            entityMsg.onTbActorStopped(TbActorStopReason.STOPPED);   // the new owner processes it
            return;
        }
        // a store shared by the nodes refuses a token older than the newest it has for the partition
        if (!repository.save(epoch.getPartition(), epoch.getFencingToken(), entityMsg.getPayload())) {
            entityMsg.onSuperseded();   // a later owner wrote first: the message is its own
            return;
        }
        entityMsg.onProcessed();
        // end example
    }
}
