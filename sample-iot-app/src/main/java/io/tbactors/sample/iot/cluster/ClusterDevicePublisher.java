package io.tbactors.sample.iot.cluster;

import io.tbactors.sample.iot.actors.msg.ClusterDeviceData;
import io.tbactors.kafka.TbClusterRouter;
import io.tbactors.sample.iot.actors.IotActorIds;
import io.tbactors.sample.iot.actors.msg.DeviceDataMsg;
import io.tbactors.sample.iot.config.SampleProperties;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * With the {@code cluster} profile, the device API hands what devices post to this publisher instead of the local
 * root actor: the message goes to the node that owns the device's partition, told locally when that is this node.
 * The HTTP answer waits for the same thing as without the profile (the owner's device actor took the message) when
 * the message stays local, and for Kafka to have stored it otherwise.
 */
@Component
@Profile("cluster")
public class ClusterDevicePublisher {

    private final TbClusterRouter router;
    private final Duration replyTimeout;

    /**
     * @param router the cluster's router
     * @param properties whose device API reply timeout bounds the wait for the owner's answer
     */
    public ClusterDevicePublisher(TbClusterRouter router, SampleProperties properties) {
        this.router = router;
        this.replyTimeout = properties.getDeviceApi().getReplyTimeout();
    }

    /**
     * @param msg what a device posted
     * @return completes once the owner stored the readings; exceptionally when it was not taken, when the owner's rule
     *     chain failed on it (after the owner's retries), or when the owner did not answer within the reply timeout
     */
    public CompletableFuture<Void> publish(DeviceDataMsg msg) {
        return router.request(IotActorIds.DEVICE, msg.deviceId(), ClusterDeviceData.of(msg), replyTimeout);
    }
}
