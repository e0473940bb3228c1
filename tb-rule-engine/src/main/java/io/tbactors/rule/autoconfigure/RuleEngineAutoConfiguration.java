package io.tbactors.rule.autoconfigure;

import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.tbactors.api.TbActorSystem;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.rule.RuleEngine;
import io.tbactors.rule.RuleEngineContext;
import io.tbactors.rule.RuleEngineListener;
import io.tbactors.rule.RuleNodeFailureReason;
import io.tbactors.rule.chain.ResourceRuleChainSource;
import io.tbactors.rule.chain.RuleChainSource;
import io.tbactors.rule.chain.RuleChainValidator;
import io.tbactors.rule.node.RuleNodeRegistry;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.stats.RuleNodeMeters;
import io.tbactors.rule.stats.RuleNodeStats;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import tools.jackson.databind.json.JsonMapper;

/**
 * The rule engine next to the starter: the node types (built-in ones and every {@link TbNode} bean), the validator,
 * per-node statistics (Micrometer meters when there is a registry, the {@code rulechains} endpoint with actuator),
 * the chains ({@code tb.rule-engine.chains} files unless the application has its own {@link RuleChainSource}) and a
 * {@link RuleEngine} on the starter's actor system.
 */
@AutoConfiguration(afterName = {"io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration"})
@ConditionalOnClass(TbActorSystem.class)
@EnableConfigurationProperties(RuleEngineProperties.class)
public final class RuleEngineAutoConfiguration {

    RuleEngineAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    RuleNodeRegistry ruleNodeRegistry(List<TbNode<?>> nodes, ObjectProvider<JsonMapper> jsonMapper) {
        return RuleNodeRegistry.withBuiltIns(nodes, jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()));
    }

    @Bean
    @ConditionalOnMissingBean
    RuleChainValidator ruleChainValidator(RuleNodeRegistry registry) {
        return new RuleChainValidator(registry);
    }

    @Bean
    @ConditionalOnMissingBean
    RuleNodeStats ruleNodeStats(RuleEngineProperties properties, ObjectProvider<RuleNodeMeters> meters) {
        return new RuleNodeStats(properties.getDebugCapacity(), meters.getIfAvailable(() -> RuleNodeMeters.NONE));
    }

    @Bean
    @ConditionalOnMissingBean(RuleChainSource.class)
    @Conditional(OnChainFilesCondition.class)
    ResourceRuleChainSource resourceRuleChainSource(RuleChainValidator validator, ObjectProvider<JsonMapper> jsonMapper,
                                                    ResourceLoader resourceLoader, RuleEngineProperties properties) {
        return new ResourceRuleChainSource(validator, jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()), resourceLoader,
                properties.getChains());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(RuleChainSource.class)
    RuleEngineContext ruleEngineContext(RuleChainSource chains, RuleNodeRegistry nodes, RuleNodeStats stats,
                                        ObjectProvider<RuleEngineListener> listener, ObjectProvider<RuleNodeFailureReason> failureReason,
                                        RuleEngineProperties properties) {
        return new RuleEngineContext(chains, nodes, stats, listener.getIfAvailable(() -> RuleEngineListener.NONE),
                properties.getDispatcher(), failureReason.getIfAvailable(() -> Throwable::getMessage)::reason);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean({RuleEngineContext.class, TbActorSystem.class})
    RuleEngine ruleEngine(TbActorSystem actorSystem, RuleEngineContext context) {
        if (actorSystem instanceof DefaultTbActorSystem system && system.getDispatcher(context.dispatcher()).isEmpty()) {
            system.createDispatcher(context.dispatcher(), DispatcherKind.FORK_JOIN, Runtime.getRuntime().availableProcessors());
        }
        return new RuleEngine(actorSystem, context);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static class RuleEngineMetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(MeterRegistry.class)
        RuleNodeMeters ruleNodeMeters(MeterRegistry registry) {
            return new MicrometerRuleNodeMeters(registry);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
    static class RuleEngineEndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnAvailableEndpoint(RuleEngineEndpoint.class)
        RuleEngineEndpoint ruleEngineEndpoint(RuleNodeStats stats) {
            return new RuleEngineEndpoint(stats);
        }
    }
}
