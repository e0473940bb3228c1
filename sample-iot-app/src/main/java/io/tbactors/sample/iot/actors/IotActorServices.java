package io.tbactors.sample.iot.actors;

import io.tbactors.rule.RuleEngineContext;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.rule.RuleChainService;
import io.tbactors.sample.iot.stats.IotStats;
import lombok.Getter;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/**
 * The services actors use, fetched once through {@code ActorSystemContext.getBean} by the application actor and
 * handed down to the actors it creates (actors are not beans).
 */
@Getter
@Component
@RequiredArgsConstructor
public class IotActorServices {

    private final DeviceService deviceService;
    private final RuleChainService ruleChainService;
    private final RuleEngineContext ruleEngine;
    private final IotStats stats;
}
