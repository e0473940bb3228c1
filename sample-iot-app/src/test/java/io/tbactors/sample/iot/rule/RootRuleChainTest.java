package io.tbactors.sample.iot.rule;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import io.tbactors.rule.chain.RuleChainDefinition;
import io.tbactors.rule.chain.RuleChainValidator;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ClassPathResource;

class RootRuleChainTest {

    private final RuleChainValidator validator = new RuleChainValidator(RuleTestSupport.mocks().registry());

    @Test
    void theShippedRootChainIsValidWithTheSamplesNodes() throws IOException {
        String template;
        try (InputStream in = new ClassPathResource(RootRuleChainBootstrap.ROOT_CHAIN_RESOURCE).getInputStream()) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        RuleChainDefinition chain = validator.parse(RuleTestSupport.JSON.readTree(template.replace("{{temperatureThreshold}}", "30")), "x");

        assertThat(chain.name()).isEqualTo("Root Rule Chain");
        assertThat(chain.firstNodeId()).isEqualTo("message-type");
        assertThat(chain.nodes()).hasSize(10);
    }
}
