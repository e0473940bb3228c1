package io.tbactors.rule.testing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.rule.MsgPackCallback;
import io.tbactors.rule.RuleEngine;
import io.tbactors.rule.RuleEngineContext;
import io.tbactors.rule.RuleEngineListener;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgData;
import io.tbactors.rule.TbMsgTracker;
import io.tbactors.rule.chain.LoadedRuleChain;
import io.tbactors.rule.chain.RuleChainDefinition;
import io.tbactors.rule.chain.RuleChainValidator;
import io.tbactors.rule.chain.RuleNodeDefinition;
import io.tbactors.rule.node.RuleNodeRegistry;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.stats.DebugEvent;
import io.tbactors.rule.stats.RuleNodeMeters;
import io.tbactors.rule.stats.RuleNodeStats;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs one chain on its own actor system, for a test: sends a message through it, waits until the chain is done
 * with it, and tells which relations each node took and which messages came out of it. Chosen nodes can be
 * replaced by {@link ProbeNode}s (a save that should not touch a database, a node whose answer the test picks).
 * Close it after the test.
 *
 * <pre>{@code
 * try (RuleChainTester tester = RuleChainTester.forChain(chainJson, nodeTypes)) {
 *     ProbeNode save = tester.replace("save", "Success");
 *     RuleChainTester.Run run = tester.send("POST_TELEMETRY_REQUEST", Map.of("temperature", 40.0));
 *     assertThat(run.relations("hot")).containsExactly("True");
 *     assertThat(save.received()).hasSize(1);
 * }
 * }</pre>
 */
public final class RuleChainTester implements AutoCloseable {

    private static final String DISPATCHER = "rule-chain-tester";

    private final JsonNode chainJson;
    private final List<TbNode<?>> nodeTypes;
    private final JsonMapper jsonMapper;
    private final Map<String, ProbeNode> probes = new HashMap<>();
    private final UUID chainId = UUID.randomUUID();
    private DefaultTbActorSystem system;
    private RuleEngine engine;
    private RuleNodeStats stats;

    private RuleChainTester(JsonNode chainJson, Collection<? extends TbNode<?>> nodeTypes, JsonMapper jsonMapper) {
        this.chainJson = chainJson;
        this.nodeTypes = List.copyOf(nodeTypes);
        this.jsonMapper = jsonMapper;
    }

    /**
     * @param chainJson the chain, as in a chain file
     * @param nodeTypes the application's node types (the built-in ones are added)
     * @return a tester; the chain starts with the first {@link #send}
     */
    public static RuleChainTester forChain(String chainJson, Collection<? extends TbNode<?>> nodeTypes) {
        JsonMapper jsonMapper = JsonMapper.builder().build();
        return new RuleChainTester(jsonMapper.readTree(chainJson), nodeTypes, jsonMapper);
    }

    /**
     * Replaces a node by a probe that answers every message with the given relations.
     *
     * @param nodeId the node's id in the chain
     * @param relations the relations it leaves on
     * @return the probe
     */
    public ProbeNode replace(String nodeId, String... relations) {
        List<String> answer = List.of(relations);
        return replace(nodeId, new LinkedHashSet<>(answer), msg -> answer);
    }

    /**
     * Replaces a node by a probe that picks its relations per message.
     *
     * @param nodeId the node's id in the chain
     * @param relations every relation it may pick
     * @param answer picks them
     * @return the probe
     */
    public ProbeNode replace(String nodeId, Set<String> relations, Function<TbMsg, List<String>> answer) {
        if (engine != null) {
            throw new IllegalStateException("Replace nodes before the first send: the chain has started");
        }
        ProbeNode probe = new ProbeNode("probe:" + nodeId, Set.copyOf(relations), answer);
        probes.put(nodeId, probe);
        return probe;
    }

    /**
     * Sends a message from a random originator and waits (at most 10 seconds) until the chain is done with it.
     *
     * @param type the message type
     * @param data its data
     * @return what happened to it
     */
    public Run send(String type, Map<String, Object> data) {
        return send(type, data, Map.of());
    }

    /**
     * @param type the message type
     * @param data its data
     * @param metadata its metadata
     * @return what happened to it
     */
    public Run send(String type, Map<String, Object> data, Map<String, String> metadata) {
        start();
        CompletableFuture<Void> done = new CompletableFuture<>();
        TbMsg msg = new TbMsg(UUID.randomUUID(), type, null, UUID.randomUUID(), System.currentTimeMillis(), TbMsgData.frozenValues(data),
                Map.copyOf(metadata), new TbMsgTracker(RuleEngineListener.NONE, new MsgPackCallback(1, done)));
        engine.process(chainId, msg);
        Throwable failure = null;
        try {
            done.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            failure = e.getCause();
        } catch (TimeoutException e) {
            throw new IllegalStateException("The chain did not finish the message within 10 seconds", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the chain", e);
        }
        Map<String, List<DebugEvent>> outs = new HashMap<>();
        stats.chain(chainId).forEach((nodeId, node) -> node.getDebugEvents().stream()
                .filter(event -> "OUT".equals(event.direction()) && event.msgId().equals(msg.id()))
                .forEach(event -> outs.computeIfAbsent(nodeId, id -> new ArrayList<>()).add(event)));
        return new Run(outs, failure);
    }

    private void start() {
        if (engine != null) {
            return;
        }
        List<TbNode<?>> types = new ArrayList<>(nodeTypes);
        types.addAll(probes.values());
        RuleNodeRegistry registry = RuleNodeRegistry.withBuiltIns(types, jsonMapper);
        RuleChainDefinition parsed = new RuleChainValidator(registry).parse(withProbes(), "chain under test");
        LoadedRuleChain chain = new LoadedRuleChain(chainId, 1, parsed);
        stats = new RuleNodeStats(10_000, RuleNodeMeters.NONE);
        stats.setDebugByDefault(true);
        system = new DefaultTbActorSystem(new TbActorSystemSettings(10, 1, 1));
        system.createDispatcher(DISPATCHER, Executors.newFixedThreadPool(2));
        engine = new RuleEngine(system, new RuleEngineContext(id -> id.equals(chainId) ? Optional.of(chain) : Optional.empty(),
                registry, stats, RuleEngineListener.NONE, DISPATCHER, Throwable::getMessage));
    }

    private JsonNode withProbes() {
        JsonNode copy = chainJson.deepCopy();
        JsonNode nodes = copy.get("nodes");
        Set<String> missing = new LinkedHashSet<>(probes.keySet());
        if (nodes != null && nodes.isArray()) {
            for (JsonNode node : nodes) {
                JsonNode id = node.get("id");
                if (id != null && probes.containsKey(id.asString())) {
                    ((ObjectNode) node).put("type", "probe:" + id.asString()).remove("configuration");
                    missing.remove(id.asString());
                }
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("The chain has no node " + missing + " to replace");
        }
        return copy;
    }

    /** @return the chain as it runs, probes included (valid once the first message was sent) */
    public List<RuleNodeDefinition> nodes() {
        start();
        return engine.getContext().chains().findById(chainId).orElseThrow().definition().nodes();
    }

    @Override
    public void close() {
        if (system != null) {
            system.stop();
        }
    }

    /** What happened to one message. */
    public static final class Run {

        private final Map<String, List<DebugEvent>> outs;
        private final Throwable failure;

        Run(Map<String, List<DebugEvent>> outs, Throwable failure) {
            this.outs = outs;
            this.failure = failure;
        }

        /**
         * @param nodeId a node
         * @return the relations it left on, over every copy of the message that reached it (empty when none did)
         */
        public List<String> relations(String nodeId) {
            List<String> relations = new ArrayList<>();
            outs.getOrDefault(nodeId, List.of()).forEach(event -> relations.addAll(event.relations()));
            return relations;
        }

        /**
         * @param nodeId a node
         * @return the data of the messages that came out of it
         */
        public List<Map<String, Object>> output(String nodeId) {
            return outs.getOrDefault(nodeId, List.of()).stream().map(DebugEvent::data).toList();
        }

        /** @return why the chain failed the message (a node failed with no Failure connection), if it did */
        public Optional<Throwable> failure() {
            return Optional.ofNullable(failure);
        }
    }
}
