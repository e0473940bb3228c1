package io.tbactors.sample.iot.rule;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.tenant.DefaultTenant;
import lombok.RequiredArgsConstructor;
import lombok.extern.slf4j.Slf4j;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.io.ClassPathResource;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Gives the default tenant its root rule chain on first start ({@code rule-chains/root-rule-chain.json}, with
 * the threshold from {@code sample.rule-engine.temperature-threshold}). Runs once the beans exist and before the
 * actors start, so the tenant actor finds the chain. Later starts keep the stored chain, whatever was changed.
 */
@Slf4j
@Component
@RequiredArgsConstructor
public class RootRuleChainBootstrap implements SmartInitializingSingleton {

    /** Where the default root chain is on the class path. */
    public static final String ROOT_CHAIN_RESOURCE = "rule-chains/root-rule-chain.json";

    private final RuleChainRepository repository;
    private final RuleChainService ruleChainService;
    private final JsonMapper jsonMapper;
    private final SampleProperties properties;

    @Override
    public void afterSingletonsInstantiated() {
        if (repository.findAllByTenantIdOrderByCreatedTimeAsc(DefaultTenant.ID).stream().anyMatch(RuleChain::root)) {
            return;
        }
        RuleChain chain = ruleChainService.create(DefaultTenant.ID, true, jsonMapper.readTree(rootChainJson()));
        log.info("Created the root rule chain {} ('{}')", chain.id(), chain.name());
    }

    private String rootChainJson() {
        try (InputStream in = new ClassPathResource(ROOT_CHAIN_RESOURCE).getInputStream()) {
            String template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return template.replace("{{temperatureThreshold}}", Double.toString(properties.getRuleEngine().getTemperatureThreshold()));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + ROOT_CHAIN_RESOURCE, e);
        }
    }
}
