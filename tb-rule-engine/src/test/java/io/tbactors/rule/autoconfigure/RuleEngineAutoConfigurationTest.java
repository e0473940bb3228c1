package io.tbactors.rule.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tbactors.rule.RuleEngine;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.chain.ResourceRuleChainSource;
import io.tbactors.rule.chain.RuleChainValidator;
import io.tbactors.rule.node.RuleNodeRegistry;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.node.TbNodeCallback;
import io.tbactors.rule.node.TbNodeContext;
import io.tbactors.rule.stats.RuleNodeMeters;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class RuleEngineAutoConfigurationTest {

    private static final UUID PROBE_CHAIN = UUID.fromString("7f000001-0000-4000-8000-000000000001");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TbActorsAutoConfiguration.class, RuleEngineAutoConfiguration.class));

    /** An application's node type, named like the probe chain's custom node. */
    static final class AppProbeNode implements TbNode<Void> {

        @Override
        public String type() {
            return "probe";
        }

        @Override
        public Class<Void> configurationType() {
            return Void.class;
        }

        @Override
        public Set<String> relations(Void configuration) {
            return Set.of("Success");
        }

        @Override
        public void onMsg(TbNodeContext<Void> ctx, TbMsg msg, TbNodeCallback callback) {
            callback.tellSuccess(msg);
        }
    }

    @Test
    void chainFilesAndNodeBeansGiveAWorkingEngineWithMetersAndTheEndpoint() {
        runner.withBean(AppProbeNode.class).withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues("tb.rule-engine.chains=classpath:chains/probe.json", "tb.rule-engine.dispatcher=chains",
                        "management.endpoints.web.exposure.include=rulechains")
                .run(context -> {
                    assertThat(context.getBean(RuleNodeRegistry.class).types()).contains("probe", "filter", "switch", "log");
                    assertThat(context).hasSingleBean(RuleChainValidator.class).hasSingleBean(ResourceRuleChainSource.class)
                            .hasSingleBean(RuleEngineEndpoint.class).hasSingleBean(RuleNodeMeters.class);

                    context.getBean(RuleEngine.class).process(PROBE_CHAIN, "T", UUID.randomUUID(), Map.of("route", "store"), Map.of())
                            .get(10, TimeUnit.SECONDS);

                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    assertThat(meters.get("tb.rule.node.messages.in").tag("node", "store").counter().count()).isEqualTo(1);
                    assertThat(meters.get("tb.rule.node.messages.out").tag("node", "switch").tag("relation", "store").counter().count())
                            .isEqualTo(1);
                    assertThat(meters.get("tb.rule.node.processing").tag("node", "store").timer().count()).isEqualTo(1);
                    RuleEngineEndpoint endpoint = context.getBean(RuleEngineEndpoint.class);
                    assertThat(endpoint.chains().get(PROBE_CHAIN)).containsKeys("switch", "store", "mark", "log");
                    assertThat(endpoint.chains().get(PROBE_CHAIN).get("switch").out()).containsEntry("store", 1L);
                    assertThat(endpoint.debug(PROBE_CHAIN, "store", true)).isTrue();
                    assertThat(endpoint.chain(PROBE_CHAIN).get("store").debug()).isTrue();
                });
    }

    @Test
    void twoNodeTypesWithOneNameStopTheStartNamingBoth() {
        runner.withBean("one", AppProbeNode.class).withBean("two", AppProbeNode.class)
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("Two rule node types are named 'probe'")
                        .hasMessageContaining(AppProbeNode.class.getName()));
    }

    @Test
    void withoutChainsOrARepositoryThereIsNoEngineButChainsCanBeValidated() {
        runner.run(context -> assertThat(context).doesNotHaveBean(RuleEngine.class).hasSingleBean(RuleChainValidator.class));
    }

    @Test
    void withoutMicrometerThereAreNoMeters() {
        runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .withPropertyValues("tb.rule-engine.chains=classpath:chains/probe.json").withBean(AppProbeNode.class)
                .run(context -> assertThat(context).hasSingleBean(RuleEngine.class).doesNotHaveBean(RuleNodeMeters.class));
    }
}
