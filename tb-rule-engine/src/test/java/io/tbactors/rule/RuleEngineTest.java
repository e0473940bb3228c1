package io.tbactors.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.rule.chain.ResourceRuleChainSource;
import io.tbactors.rule.chain.RuleChainValidationException;
import io.tbactors.rule.chain.RuleChainValidator;
import io.tbactors.rule.node.RuleNodeRegistry;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.node.TbNodeCallback;
import io.tbactors.rule.node.TbNodeContext;
import io.tbactors.rule.stats.DebugEvent;
import io.tbactors.rule.stats.NodeStats;
import io.tbactors.rule.stats.RuleNodeMeters;
import io.tbactors.rule.stats.RuleNodeStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * The engine on a real actor system, chains from files: completion, statistics, debug mode, live update and the
 * node lifecycle.
 */
class RuleEngineTest {

    private static final UUID PROBE_CHAIN = UUID.fromString("7f000001-0000-4000-8000-000000000001");

    private final ProbeNode probe = new ProbeNode();
    private final RuleNodeRegistry registry = RuleNodeRegistry.withBuiltIns(List.of(probe), RuleTestSupport.JSON);
    private final RuleChainValidator validator = new RuleChainValidator(registry);
    private final DefaultTbActorSystem system = new DefaultTbActorSystem(new TbActorSystemSettings(5, 1, 3));

    @TempDir
    Path dir;

    /** Completes each message when the test says so, and records its lifecycle. */
    static final class ProbeNode implements TbNode<Void> {

        final List<CompletableFuture<Void>> pending = new CopyOnWriteArrayList<>();
        final List<String> lifecycle = new CopyOnWriteArrayList<>();

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
        public void init(TbNodeContext<Void> ctx) {
            lifecycle.add("init " + ctx.nodeId());
        }

        @Override
        public void destroy(TbNodeContext<Void> ctx) {
            lifecycle.add("destroy " + ctx.nodeId());
        }

        @Override
        public void onMsg(TbNodeContext<Void> ctx, TbMsg msg, TbNodeCallback callback) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            pending.add(done);
            callback.tellSuccessWhen(done, msg);
        }
    }

    @AfterEach
    void stop() {
        system.stop();
    }

    private RuleEngine engine(ResourceRuleChainSource source, RuleNodeStats stats) {
        system.createDispatcher("rules", Executors.newFixedThreadPool(2));
        return new RuleEngine(system, new RuleEngineContext(source, registry, stats, RuleEngineListener.NONE, "rules",
                Throwable::getMessage));
    }

    private ResourceRuleChainSource probeChain() {
        return new ResourceRuleChainSource(validator, RuleTestSupport.JSON, new DefaultResourceLoader(),
                List.of("classpath:chains/probe.json"));
    }

    @Test
    void theFutureCompletesOnlyWhenTheAsyncNodeCompletesAndEveryBranchEnded() throws Exception {
        RuleNodeStats stats = new RuleNodeStats();
        RuleEngine engine = engine(probeChain(), stats);

        CompletableFuture<Void> done = engine.process(PROBE_CHAIN, "T", UUID.randomUUID(), Map.of("route", "store"), Map.of());

        await().atMost(Duration.ofSeconds(10)).until(() -> probe.pending.size() == 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> stats.chain(PROBE_CHAIN).containsKey("log"));
        assertThat(done).as("the store branch has not finished").isNotDone();
        probe.pending.get(0).complete(null);
        done.get(10, TimeUnit.SECONDS);

        Map<String, NodeStats> nodes = stats.chain(PROBE_CHAIN);
        assertThat(nodes.get("switch").getIn()).isEqualTo(1);
        assertThat(nodes.get("switch").getOut()).containsExactly(Map.entry("store", 1L));
        assertThat(nodes.get("store").getOut()).containsExactly(Map.entry("Success", 1L));
        assertThat(nodes.get("store").getProcessed()).isEqualTo(1);
        assertThat(nodes.get("store").getMeanProcessingMillis()).isPositive();
        assertThat(nodes.get("log").getType()).isEqualTo("log");
    }

    @Test
    void aRelationTheNodeDoesNotDeclareFailsTheMessageNamingTheNodeAndIsCounted() {
        RuleNodeStats stats = new RuleNodeStats();
        RuleEngine engine = engine(probeChain(), stats);
        engine.process(PROBE_CHAIN, "T", UUID.randomUUID(), Map.of("route", "store"), Map.of());
        await().atMost(Duration.ofSeconds(10)).until(() -> stats.setDebug(PROBE_CHAIN, "switch", true));

        CompletableFuture<Void> done = engine.process(PROBE_CHAIN, "T", UUID.randomUUID(), Map.of("route", "elsewhere"), Map.of());

        assertThatThrownBy(() -> done.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(RuleChainFailureException.class)
                .hasMessageContaining("rule node 'switch' failed")
                .hasMessageContaining("left on 'elsewhere', which its type does not declare; it declares [Failure, drop, rogue, store]");
        NodeStats switchStats = stats.chain(PROBE_CHAIN).get("switch");
        assertThat(switchStats.getFailures()).isEqualTo(1);
        assertThat(switchStats.getOut()).containsEntry("Failure", 1L);
        List<DebugEvent> events = switchStats.getDebugEvents();
        assertThat(events).extracting(DebugEvent::direction).containsExactly("IN", "OUT");
        assertThat(events.get(1).relations()).containsExactly("Failure");
        assertThat(events.get(1).error()).contains("which its type does not declare");
    }

    @Test
    void debugModeKeepsOnlyTheLastMessagesAndForgetsThemWhenTurnedOff() throws Exception {
        RuleNodeStats stats = new RuleNodeStats(3, RuleNodeMeters.NONE);
        RuleEngine engine = engine(probeChain(), stats);
        engine.process(PROBE_CHAIN, "T", UUID.randomUUID(), Map.of("route", "drop"), Map.of()).get(10, TimeUnit.SECONDS);
        assertThat(stats.setDebug(PROBE_CHAIN, "switch", true)).isTrue();
        assertThat(stats.setDebug(PROBE_CHAIN, "no-such-node", true)).isFalse();

        for (int i = 0; i < 5; i++) {
            engine.process(PROBE_CHAIN, "T", UUID.randomUUID(), Map.of("route", "drop", "i", (long) i), Map.of()).get(10, TimeUnit.SECONDS);
        }

        List<DebugEvent> events = stats.chain(PROBE_CHAIN).get("switch").getDebugEvents();
        assertThat(events).hasSize(3);
        assertThat(events.get(2).direction()).isEqualTo("OUT");
        assertThat(events.get(2).data()).containsEntry("i", 4L);
        stats.setDebug(PROBE_CHAIN, "switch", false);
        assertThat(stats.chain(PROBE_CHAIN).get("switch").getDebugEvents()).isEmpty();
        assertThatThrownBy(() -> new RuleNodeStats(0, RuleNodeMeters.NONE)).hasMessageContaining("tb.rule-engine.debug-capacity");
    }

    @Test
    void aNodeMarkedDebugModeInTheChainFileKeepsItsEventsFromTheFirstMessage() throws Exception {
        Path file = dir.resolve("debug.yaml");
        Files.writeString(file, """
                name: Debugged
                nodes:
                  - {id: mark, type: transform, configuration: {set: {seen: "true"}}, debugMode: true}
                  - {id: log, type: log}
                connections:
                  - {from: mark, to: log, relation: Success}
                """, StandardCharsets.UTF_8);
        ResourceRuleChainSource source = new ResourceRuleChainSource(validator, RuleTestSupport.JSON, null, List.of("file:" + file));
        RuleNodeStats stats = new RuleNodeStats();
        RuleEngine engine = engine(source, stats);
        UUID chain = source.idOf("Debugged");

        engine.process(chain, "T", UUID.randomUUID(), Map.of("t", 1), Map.of()).get(10, TimeUnit.SECONDS);

        assertThat(stats.chain(chain).get("mark").isDebug()).isTrue();
        assertThat(stats.chain(chain).get("mark").getDebugEvents()).isNotEmpty();
        assertThat(stats.chain(chain).get("log").isDebug()).as("not marked").isFalse();
        assertThat(stats.chain(chain).get("log").getDebugEvents()).isEmpty();
    }

    @Test
    void aChangedFileIsAppliedByOneReloadAndTheOldNodesAreDestroyed() throws Exception {
        Path file = dir.resolve("chain.json");
        Files.writeString(file, chainWithProbe("store"), StandardCharsets.UTF_8);
        ResourceRuleChainSource source = new ResourceRuleChainSource(validator, RuleTestSupport.JSON, null,
                List.of("file:" + file));
        RuleEngine engine = engine(source, new RuleNodeStats());
        UUID chain = source.idOf("File chain");
        CompletableFuture<Void> first = engine.process(chain, "T", UUID.randomUUID(), Map.of(), Map.of());
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.pending.size() == 1);
        probe.pending.get(0).complete(null);
        first.get(10, TimeUnit.SECONDS);
        assertThat(source.findById(chain).orElseThrow().version()).isEqualTo(1);

        Files.writeString(file, chainWithProbe("store2"), StandardCharsets.UTF_8);
        assertThat(source.refresh()).containsExactly(chain);
        engine.reload(chain);
        CompletableFuture<Void> second = engine.process(chain, "T", UUID.randomUUID(), Map.of(), Map.of());
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.pending.size() == 2);
        probe.pending.get(1).complete(null);
        second.get(10, TimeUnit.SECONDS);

        assertThat(source.findById(chain).orElseThrow().version()).isEqualTo(2);
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.lifecycle.contains("destroy store"));
        assertThat(probe.lifecycle).containsSubsequence("init store", "init store2");
        assertThat(source.refresh()).as("nothing changed").isEmpty();
    }

    @Test
    void aChainThatCannotBeReadOnReloadKeepsItsVersionAndTheFailureIsToldToTheListener() throws Exception {
        List<UUID> failedReloads = new CopyOnWriteArrayList<>();
        AtomicBoolean broken = new AtomicBoolean();
        ResourceRuleChainSource files = probeChain();
        system.createDispatcher("rules", Executors.newFixedThreadPool(2));
        RuleEngine engine = new RuleEngine(system, new RuleEngineContext(id -> {
            if (broken.get()) {
                throw new IllegalStateException("database down");
            }
            return files.findById(id);
        }, registry, new RuleNodeStats(), new RuleEngineListener() {
            @Override
            public void chainReloadFailed(UUID chainId, Throwable failure) {
                failedReloads.add(chainId);
            }
        }, "rules", Throwable::getMessage));
        engine.process(PROBE_CHAIN, "T", UUID.randomUUID(), Map.of("route", "drop"), Map.of()).get(10, TimeUnit.SECONDS);

        broken.set(true);
        engine.reload(PROBE_CHAIN);
        await().atMost(Duration.ofSeconds(10)).until(() -> failedReloads.contains(PROBE_CHAIN));
        broken.set(false);

        engine.process(PROBE_CHAIN, "T", UUID.randomUUID(), Map.of("route", "drop"), Map.of()).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aMissingOrInvalidFileIsRefusedWithItsLocationAndAnUnknownChainFailsItsMessage() throws Exception {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"nodes\": [{\"id\": \"a\", \"type\": \"filter\"}]}", StandardCharsets.UTF_8);

        assertThatThrownBy(() -> new ResourceRuleChainSource(validator, RuleTestSupport.JSON, null,
                List.of("file:" + bad, "classpath:chains/missing.json")))
                .isInstanceOf(RuleChainValidationException.class)
                .hasMessageContaining("file:" + bad + ": nodes[0].configuration.condition: is required")
                .hasMessageContaining("classpath:chains/missing.json: cannot read the chain file");
        RuleEngine engine = engine(probeChain(), new RuleNodeStats());
        CompletableFuture<Void> unknown = engine.process(UUID.randomUUID(), "T", UUID.randomUUID(), Map.of(), Map.of());
        assertThatThrownBy(() -> unknown.get(10, TimeUnit.SECONDS)).cause().hasMessageContaining("there is no rule chain");
        assertThatThrownBy(() -> probeChain().idOf("Nope")).hasMessage("No rule chain is named 'Nope'; the chains are [Probe]");
    }

    private static String chainWithProbe(String nodeId) {
        return """
                {"name": "File chain", "nodes": [{"id": "%s", "type": "probe"}]}
                """.formatted(nodeId);
    }
}
