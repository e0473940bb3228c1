package io.tbactors.sample.iot.cluster;

import io.tbactors.api.TbActorMsg;
import io.tbactors.kafka.TbBroadcastListener;
import io.tbactors.kafka.TbNodeChannel;
import io.tbactors.sample.iot.actors.msg.DeviceDeletedMsg;
import io.tbactors.sample.iot.actors.msg.RuleChainUpdatedMsg;
import io.tbactors.sample.iot.web.ApiException;
import io.tbactors.spring.ActorSystemContext;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.beans.factory.ObjectProvider;
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
    private final ObjectProvider<AdminChangeListener> listeners;

    /**
     * @param channel the node channel; lazy, since it lists this bean among its listeners
     * @param actorSystemContext where the actors' messages go
     * @param listeners the owners of caches, each evicting what a change made stale (looked up at each change, since
     *     they are the services' neighbours that publish through this bean)
     */
    public AdminChanges(@Lazy TbNodeChannel channel, ActorSystemContext actorSystemContext,
                        ObjectProvider<AdminChangeListener> listeners) {
        this.channel = channel;
        this.actorSystemContext = actorSystemContext;
        this.listeners = listeners;
    }

    /**
     * Applies a change on every node, this one first, and waits until every other node has it.
     *
     * @param change a {@link RuleChainUpdatedMsg}, a {@link DeviceDeletedMsg} or a change only listeners take (a
     *     device token changed)
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
        // caches first: a chain actor told to reload must not read the stale chain back
        listeners.orderedStream().forEach(listener -> listener.onAdminChange(msg));
        if (msg instanceof RuleChainUpdatedMsg || msg instanceof DeviceDeletedMsg) {
            tellActors(msg);
        }
    }

    private void tellActors(TbActorMsg msg) {
        // before the actors start (first-start bootstrap) there is no one to tell: the tenant actor loads chains in init
        if (actorSystemContext.getRootActor() != null) {
            actorSystemContext.tellWithHighPriority(msg);
        }
    }
}
