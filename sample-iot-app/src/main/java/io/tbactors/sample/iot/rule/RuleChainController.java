package io.tbactors.sample.iot.rule;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

import io.tbactors.rule.chain.RuleChainDefinition;
import io.tbactors.rule.chain.RuleConnection;
import io.tbactors.rule.chain.RuleNodeDefinition;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.tenant.DefaultTenant;
import io.tbactors.sample.iot.web.RequestBodies;
import jakarta.servlet.http.HttpServletRequest;
import lombok.RequiredArgsConstructor;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Management API for rule chains. A {@code PUT} takes effect at once, without a restart.
 */
@RestController
@RequestMapping("/api/rule-chains")
@RequiredArgsConstructor
public class RuleChainController {

    private final RuleChainService ruleChainService;
    private final JsonMapper jsonMapper;
    private final SampleProperties properties;

    /**
     * A rule chain as the API shows it; {@code PUT} accepts the same document (id, root and version are ignored).
     *
     * @param root whether device messages enter it
     * @param version incremented by each update
     * @param updatedTime last update, epoch milliseconds
     * @param firstNodeId where messages enter
     */
    public record RuleChainView(UUID id, String name, boolean root, long version, long updatedTime, String firstNodeId,
                                List<RuleNodeDefinition> nodes, List<RuleConnection> connections) {
    }

    /** @return the tenant's chains */
    @GetMapping
    public List<RuleChainView> list() {
        return ruleChainService.findByTenant(DefaultTenant.ID).stream().map(this::view).toList();
    }

    /**
     * @param id the chain's id
     * @return the chain
     */
    @GetMapping("/{id}")
    public RuleChainView get(@PathVariable UUID id) {
        return view(ruleChainService.getById(id));
    }

    /**
     * @param id the chain's id
     * @param request its body is the new chain: name (optional), firstNodeId (optional, default the first node),
     *                nodes, connections; at most {@code sample.rule-engine.max-chain-size}
     * @return the stored chain
     * @throws IOException when reading the body fails
     */
    @PutMapping("/{id}")
    public RuleChainView update(@PathVariable UUID id, HttpServletRequest request) throws IOException {
        JsonNode json = RequestBodies.readJson(request, properties.getRuleEngine().getMaxChainSize(),
                "sample.rule-engine.max-chain-size", jsonMapper);
        return view(ruleChainService.update(id, json));
    }

    private RuleChainView view(RuleChain chain) {
        RuleChainDefinition definition = ruleChainService.definitionOf(chain);
        return new RuleChainView(chain.id(), chain.name(), chain.root(), chain.version() == null ? 0 : chain.version(),
                chain.updatedTime(), definition.firstNodeId(), definition.nodes(), definition.connections());
    }
}
