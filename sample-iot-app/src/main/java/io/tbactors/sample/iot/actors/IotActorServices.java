package io.tbactors.sample.iot.actors;

import io.tbactors.rule.RuleEngineContext;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.rule.RuleChainService;
import io.tbactors.sample.iot.stats.IotStats;
import lombok.Getter;
import org.springframework.stereotype.Component;

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

    /**
     * @param deviceService finds devices
     * @param ruleChainService finds rule chains
     * @param ruleEngine the rule engine's context
     * @param stats the counters
     * @param properties whose {@code sample.rpc.*} the device actors use
     */
    public IotActorServices(DeviceService deviceService, RuleChainService ruleChainService, RuleEngineContext ruleEngine,
                            IotStats stats, SampleProperties properties) {
        this.deviceService = deviceService;
        this.ruleChainService = ruleChainService;
        this.ruleEngine = ruleEngine;
        this.stats = stats;
        this.rpcSettings = properties.getRpc();
    }
}
