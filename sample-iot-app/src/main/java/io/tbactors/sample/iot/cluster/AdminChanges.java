package io.tbactors.sample.iot.cluster;

import io.tbactors.api.TbActorMsg;
import io.tbactors.kafka.TbBroadcastListener;
import io.tbactors.kafka.TbNodeChannel;
import io.tbactors.sample.iot.actors.msg.DeviceDeletedMsg;
import io.tbactors.sample.iot.actors.msg.RuleChainUpdatedMsg;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.rule.RuleChainService;
import io.tbactors.sample.iot.web.ApiException;
import io.tbactors.spring.ActorSystemContext;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.context.annotation.Lazy;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * What the admin services change reaches every node: a rule chain created or updated (each node drops the cached
 * chain and its chain actor reloads), a device deleted (its actor stops wherever it lives) and a token created or
 * deleted (each node drops it from its token cache). On one node the channel is local; with the {@code cluster}
 * profile it is the node-to-node channel over Kafka, and an admin request answers only once every node of the
 * group has the change in its inbox.
 */
@Component
public class AdminChanges implements TbBroadcastListener {

    /** Longest wait for the other nodes' inboxes to take a change. */
    private static final long BROADCAST_TIMEOUT_SECONDS = 30;

    private final TbNodeChannel channel;
    private final ActorSystemContext actorSystemContext;
    private final Cache ruleChains;
    private final Cache devicesByToken;

    /**
     * @param channel the node channel; lazy, since it lists this bean among its listeners
     * @param actorSystemContext where the actors' messages go
     * @param cacheManager holds the rule chain and token caches
     */
    public AdminChanges(@Lazy TbNodeChannel channel, ActorSystemContext actorSystemContext, CacheManager cacheManager) {
        this.channel = channel;
        this.actorSystemContext = actorSystemContext;
        this.ruleChains = Objects.requireNonNull(cacheManager.getCache(RuleChainService.RULE_CHAINS), "cache ruleChains");
        this.devicesByToken = Objects.requireNonNull(cacheManager.getCache(DeviceService.DEVICES_BY_TOKEN), "cache devicesByToken");
    }

    /**
     * Applies a change on every node, this one first, and waits until every other node has it.
     *
     * @param change a {@link RuleChainUpdatedMsg}, {@link DeviceDeletedMsg} or {@link DeviceTokenChangedMsg}
     * @param what what changed, for the error
     * @throws ApiException 503, saying the change is stored and which nodes were not told, when the broadcast failed
     */
    public void publish(TbActorMsg change, String what) {
        try {
            channel.broadcast(change).get(BROADCAST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw notEveryNode(what, e);
        } catch (ExecutionException | TimeoutException | CompletionException | IllegalStateException e) {
            throw notEveryNode(what, e);
        }
    }

    private static ApiException notEveryNode(String what, Exception e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, what + " is stored, but not every node was told: "
                + cause.getMessage() + ". Nodes not told go on with what they cached until their caches expire or they restart; "
                + "send the change again to retry");
    }

    @Override
    public void onBroadcast(TbActorMsg msg) {
        if (msg instanceof RuleChainUpdatedMsg updated) {
            ruleChains.evict(updated.ruleChainId());
            tellActors(updated);
        } else if (msg instanceof DeviceDeletedMsg deleted) {
            tellActors(deleted);
        } else if (msg instanceof DeviceTokenChangedMsg token) {
            devicesByToken.evict(token.accessToken());
        }
    }

    private void tellActors(TbActorMsg msg) {
        // before the actors start (first-start bootstrap) there is no one to tell: the tenant actor loads chains in init
        if (actorSystemContext.getRootActor() != null) {
            actorSystemContext.tellWithHighPriority(msg);
        }
    }
}
