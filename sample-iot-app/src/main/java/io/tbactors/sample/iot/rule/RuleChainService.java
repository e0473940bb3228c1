package io.tbactors.sample.iot.rule;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.tbactors.rule.chain.RuleChainDefinition;
import io.tbactors.rule.chain.RuleChainValidationException;
import io.tbactors.rule.chain.RuleChainValidator;
import io.tbactors.sample.iot.actors.msg.RuleChainUpdatedMsg;
import io.tbactors.sample.iot.cluster.AdminChanges;
import io.tbactors.sample.iot.web.NotFoundException;
import io.tbactors.spring.ActorSystemContext;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores rule chains and tells their actors about changes, on every node. Chains are read through the
 * {@value #RULE_CHAINS} cache, which every node evicts before its chain actor is told to reload.
 */
@Service
public class RuleChainService {

    /** Cache of rule chains by id. */
    public static final String RULE_CHAINS = "ruleChains";

    private final RuleChainRepository repository;
    private final RuleChainValidator validator;
    private final JsonMapper jsonMapper;
    private final ActorSystemContext actorSystemContext;
    private final AdminChanges adminChanges;

    /**
     * @param repository the table
     * @param validator checks chains
     * @param jsonMapper reads and writes definitions
     * @param actorSystemContext tells whether the actors have started
     * @param adminChanges tells every node (this one included) about a change: each evicts the cached chain and tells
     *     its chain actor to reload
     */
    public RuleChainService(RuleChainRepository repository, RuleChainValidator validator, JsonMapper jsonMapper,
                            ActorSystemContext actorSystemContext, AdminChanges adminChanges) {
        this.repository = repository;
        this.validator = validator;
        this.jsonMapper = jsonMapper;
        this.actorSystemContext = actorSystemContext;
        this.adminChanges = adminChanges;
    }

    /**
     * @return the chain, or empty
     */
    @Cacheable(cacheNames = RULE_CHAINS)
    public Optional<RuleChain> findById(UUID id) {
        return repository.findById(id);
    }

    /**
     * @param tenantId the tenant
     * @return its chains, oldest first
     */
    public List<RuleChain> findByTenant(UUID tenantId) {
        return repository.findAllByTenantIdOrderByCreatedTimeAsc(tenantId);
    }

    /**
     * @param chain a stored chain
     * @return its definition
     */
    public RuleChainDefinition definitionOf(RuleChain chain) {
        return jsonMapper.readValue(chain.configuration(), RuleChainDefinition.class);
    }

    /**
     * Validates and stores a new chain.
     *
     * @param tenantId the tenant
     * @param root whether the tenant's device messages enter it
     * @param json its JSON
     * @return the stored chain
     * @throws RuleChainValidationException when the JSON is invalid
     */
    public RuleChain create(UUID tenantId, boolean root, JsonNode json) {
        RuleChainDefinition definition = validator.parse(json, "Rule chain");
        long now = System.currentTimeMillis();
        RuleChain saved = repository.save(new RuleChain(UUID.randomUUID(), tenantId, definition.name(), root,
                jsonMapper.writeValueAsString(definition), now, now, null));
        notifyActors(new RuleChainUpdatedMsg(tenantId, saved.id()));
        return saved;
    }

    /**
     * Validates and stores a chain's new JSON, then tells its actor, with high priority, to re-create its nodes.
     *
     * @param id the chain's id
     * @param json its new JSON
     * @return the stored chain, with its version incremented
     * @throws NotFoundException when there is no such chain
     * @throws RuleChainValidationException when the JSON is invalid
     */
    public RuleChain update(UUID id, JsonNode json) {
        RuleChain current = repository.findById(id).orElseThrow(() -> notFound(id));
        RuleChainDefinition definition = validator.parse(json, current.name());
        RuleChain saved = repository.save(new RuleChain(current.id(), current.tenantId(), definition.name(), current.root(),
                jsonMapper.writeValueAsString(definition), current.createdTime(), System.currentTimeMillis(), current.version()));
        notifyActors(new RuleChainUpdatedMsg(saved.tenantId(), saved.id()));
        return saved;
    }

    /**
     * @return the chain, read from the table (not the cache)
     * @throws NotFoundException when there is none
     */
    public RuleChain getById(UUID id) {
        return repository.findById(id).orElseThrow(() -> notFound(id));
    }

    private void notifyActors(RuleChainUpdatedMsg msg) {
        // before the actors start (first-start bootstrap) there is no one to tell: the tenant actors load chains in init
        if (actorSystemContext.getRootActor() != null) {
            adminChanges.publish(msg, "Rule chain " + msg.ruleChainId());
        }
    }

    private static NotFoundException notFound(UUID id) {
        return new NotFoundException("Rule chain " + id + " not found");
    }
}
