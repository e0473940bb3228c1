package io.tbactors.sample.iot.actors;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.kafka.TbPartitionChangeMsg;
import io.tbactors.sample.iot.actors.msg.DeviceAwareMsg;
import io.tbactors.sample.iot.actors.msg.DeviceDeletedMsg;
import io.tbactors.rule.actors.RuleChainActor;
import io.tbactors.rule.actors.msg.ReloadRuleChainMsg;
import io.tbactors.sample.iot.actors.msg.RuleChainUpdatedMsg;
import io.tbactors.rule.actors.msg.ToRuleEngineMsg;
import io.tbactors.rule.actors.msg.ToRuleEnginePackMsg;
import io.tbactors.rule.TbMsg;
import io.tbactors.sample.iot.rule.RuleChain;
import lombok.extern.slf4j.Slf4j;

/**
 * A tenant's actor: parent of its device actors (made on a device's first message) and of its rule chain actors
 * (made at start, one per stored chain). Device actors' rule-engine messages pass through it to the root chain.
 */
@Slf4j
public class TenantActor extends AbstractTbActor {

    private final IotActorServices services;
    private final UUID tenantId;
    private final Map<UUID, TbActorRef> ruleChains = new HashMap<>();
    private TbActorRef rootChain;

    TenantActor(IotActorServices services, UUID tenantId) {
        this.services = services;
        this.tenantId = tenantId;
    }

    @Override
    public void init(TbActorCtx ctx) throws TbActorException {
        super.init(ctx);
        try {
            for (RuleChain chain : services.getRuleChainService().findByTenant(tenantId)) {
                startRuleChain(chain);
            }
        } catch (RuntimeException e) {
            throw new TbActorException("Cannot load the rule chains of tenant " + tenantId, e);
        }
        log.info("Tenant actor {} started with {} rule chain(s)", tenantId, ruleChains.size());
    }

    @Override
    public boolean process(TbActorMsg msg) {
        if (msg instanceof DeviceDeletedMsg deleted) {
            // the device actor ends its RPC requests with the reason, then stops itself
            TbActorId id = IotActorIds.device(deleted.deviceId());
            if (!ctx.filterChildren(id::equals).isEmpty()) {
                ctx.tell(id, deleted);
            }
        } else if (msg instanceof DeviceAwareMsg deviceMsg) {
            deviceActor(deviceMsg).ifPresent(device -> device.tell(deviceMsg));
        } else if (msg instanceof ToRuleEngineMsg toRuleEngine) {
            if (rootChain != null) {
                rootChain.tell(toRuleEngine);
            } else {
                noRootChain(List.of(toRuleEngine.msg()));
            }
        } else if (msg instanceof ToRuleEnginePackMsg pack) {
            if (rootChain != null) {
                rootChain.tell(pack);
            } else {
                noRootChain(pack.msgs());
            }
        } else if (msg instanceof RuleChainUpdatedMsg updated) {
            onRuleChainUpdated(updated);
        } else if (msg instanceof TbPartitionChangeMsg change) {
            // the cluster profile: devices whose partition moved to another node live there from now on
            ctx.filterChildren(id -> IotActorIds.DEVICE.equals(id.getEntityType()) && change.isNotOwned(id)).forEach(ctx::stop);
        } else {
            return false;
        }
        return true;
    }

    private void noRootChain(List<TbMsg> msgs) {
        log.warn("Tenant {} has no root rule chain: {} message(s) not processed", tenantId, msgs.size());
        for (TbMsg tbMsg : msgs) {
            tbMsg.tracker().markFailed("tenant " + tenantId + " has no root rule chain");
            tbMsg.tracker().routed(0);
        }
    }

    private Optional<TbActorRef> deviceActor(DeviceAwareMsg msg) {
        try {
            TbActorId id = IotActorIds.device(msg.deviceId());
            return Optional.of(ctx.getOrCreateChildActor(id, () -> IotDispatchers.DEVICE,
                    () -> TbActorCreator.of(id, () -> new DeviceActor(services, tenantId, msg.deviceId()))));
        } catch (IllegalStateException stopping) {
            msg.onTbActorStopped(TbActorStopReason.STOPPED);
            return Optional.empty();
        }
    }

    private void onRuleChainUpdated(RuleChainUpdatedMsg msg) {
        TbActorRef existing = ruleChains.get(msg.ruleChainId());
        if (existing != null) {
            existing.tellWithHighPriority(new ReloadRuleChainMsg());
            return;
        }
        // a new chain: its actor loads the current version in init
        services.getRuleChainService().findById(msg.ruleChainId()).ifPresent(this::startRuleChain);
    }

    private void startRuleChain(RuleChain chain) {
        TbActorId id = IotActorIds.ruleChain(chain.id());
        TbActorRef ref = ctx.getOrCreateChildActor(id, () -> IotDispatchers.RULE,
                () -> TbActorCreator.of(id, () -> new RuleChainActor(services.getRuleEngine(), tenantId, chain.id())));
        ruleChains.put(chain.id(), ref);
        if (chain.root()) {
            rootChain = ref;
        }
    }
}
