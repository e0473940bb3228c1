package io.tbactors.sample.iot.actors;

import io.tbactors.rule.RuleEngineContext;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.rule.RuleChainService;
import io.tbactors.sample.iot.stats.IotStats;
import io.tbactors.sample.iot.storage.RpcDao;
import io.tbactors.sample.iot.actors.msg.RemoteSessions;
import lombok.AccessLevel;
import lombok.Getter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The services actors use, fetched once through {@code ActorSystemContext.getBean} by the application actor and
 * handed down to the actors it creates (actors are not beans).
 */
@Getter
@Component
public class IotActorServices {

    private final DeviceService deviceService;
    private final RuleChainService ruleChainService;
    private final RuleEngineContext ruleEngine;
    private final IotStats stats;
    private final SampleProperties.Rpc rpcSettings;
    private final RpcDao rpcDao;
    private final JsonMapper jsonMapper;
    @Getter(AccessLevel.NONE)
    private final ObjectProvider<RemoteSessions> remoteSessions;

    /**
     * @param deviceService finds devices
     * @param ruleChainService finds rule chains
     * @param ruleEngine the rule engine's context
     * @param stats the counters
     * @param properties whose {@code sample.rpc.*} the device actors use
     * @param rpcDao the persistent RPC requests
     * @param jsonMapper reads stored RPC parameters
     * @param remoteSessions with the {@code cluster} profile, the sessions and callers on other nodes
     */
    public IotActorServices(DeviceService deviceService, RuleChainService ruleChainService, RuleEngineContext ruleEngine,
                            IotStats stats, SampleProperties properties, RpcDao rpcDao, JsonMapper jsonMapper,
                            ObjectProvider<RemoteSessions> remoteSessions) {
        this.deviceService = deviceService;
        this.ruleChainService = ruleChainService;
        this.ruleEngine = ruleEngine;
        this.stats = stats;
        this.rpcSettings = properties.getRpc();
        this.rpcDao = rpcDao;
        this.jsonMapper = jsonMapper;
        this.remoteSessions = remoteSessions;
    }

    /** @return with the {@code cluster} profile, the sessions and callers on other nodes; else null */
    public RemoteSessions getRemoteSessions() {
        return remoteSessions.getIfAvailable();
    }
}
