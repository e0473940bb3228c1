package io.tbactors.sample.iot.actors;

import static io.tbactors.sample.iot.rule.RuleTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorRef;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.observe.TbActorSystemListener;
import io.tbactors.rule.actors.msg.ToRuleEnginePackMsg;
import io.tbactors.rule.MsgPackCallback;
import io.tbactors.rule.RuleEngineContext;
import io.tbactors.rule.actors.RuleChainActor;
import io.tbactors.rule.actors.msg.ReloadRuleChainMsg;
import io.tbactors.rule.stats.RuleNodeStats;
import io.tbactors.sample.iot.rule.DatabaseFailureReason;
import io.tbactors.sample.iot.rule.SampleRuleChainSource;
import io.tbactors.rule.actors.msg.ToRuleEngineMsg;
import io.tbactors.sample.iot.rule.RuleChain;
import io.tbactors.rule.RuleChainFailureException;
import io.tbactors.sample.iot.rule.RuleChainService;
import io.tbactors.rule.chain.RuleChainValidator;
import io.tbactors.sample.iot.rule.RuleTestSupport;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgCallback;
import io.tbactors.rule.TbMsgTracker;
import io.tbactors.rule.TbMsgType;
import io.tbactors.sample.iot.stats.IotStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

/**
 * The rule engine on a real actor system: a chain actor, its node actors, storage mocked.
 */
class RuleChainActorTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final UUID TENANT = UUID.randomUUID();
    private static final UUID CHAIN = UUID.randomUUID();
    private static final UUID DEVICE = UUID.randomUUID();

    private final RuleTestSupport.Mocks mocks = RuleTestSupport.mocks();
    private final RuleChainService chainService = mock(RuleChainService.class);
    private final RuleChainValidator validator = new RuleChainValidator(mocks.registry());
    private final IotStats stats = new IotStats();
    private final List<Map<String, Object>> saved = Collections.synchronizedList(new ArrayList<>());
    private DefaultTbActorSystem system;
    private TbActorRef chainActor;
    private volatile RuleChain currentChain;
    private final Map<String, LongAdder> processedByType = new ConcurrentHashMap<>();

    @BeforeEach
    void startActorSystem() {
        system = new DefaultTbActorSystem(new TbActorSystemSettings(5, 1, 3), new TbActorSystemListener() {
            @Override
            public void onMessageProcessed(String dispatcher, String actorType, long waitNanos, long processNanos, boolean failed) {
                processedByType.computeIfAbsent(actorType, type -> new LongAdder()).increment();
            }
        });
        system.createDispatcher(IotDispatchers.RULE, Executors.newFixedThreadPool(2));
        doAnswer(call -> {
            saved.add(call.getArgument(2));
            return CompletableFuture.completedFuture(null);
        }).when(mocks.timeseriesDao()).save(any(), anyLong(), any());
        when(chainService.definitionOf(any())).thenAnswer(call -> validator.parse(
                RuleTestSupport.JSON.readTree(call.getArgument(0, RuleChain.class).configuration()), "chain"));
        // stubbed once, before any actor runs: stubbing again while the actors call the mock races (UnfinishedStubbing)
        when(chainService.findById(CHAIN)).thenAnswer(call -> Optional.ofNullable(currentChain));
    }

    @AfterEach
    void stopActorSystem() {
        system.stop();
    }

    @Test
    void aNodeThatThrowsRoutesOnFailureAndItsActorGoesOnWithTheNextMessage() {
        start(1, """
                {'nodes': [{'id': 'hot', 'type': 'filter', 'configuration': {'condition': 'data.t > 30'}},
                           {'id': 'save', 'type': 'save-timeseries'},
                           {'id': 'mark', 'type': 'transform', 'configuration': {'set': {'failed': 'true'}}},
                           {'id': 'save-failed', 'type': 'save-timeseries'}],
                 'connections': [{'from': 'hot', 'to': 'save', 'relation': 'True'},
                                 {'from': 'hot', 'to': 'mark', 'relation': 'Failure'},
                                 {'from': 'mark', 'to': 'save-failed', 'relation': 'Success'}]}
                """);

        send(Map.of("t", "not a number"));
        send(Map.of("t", 40L));

        await().atMost(WAIT).until(() -> stats.getProcessed() == 2);
        // two branches, two node actors: no order between them
        assertThat(saved).containsExactlyInAnyOrder(Map.of("t", "not a number", "failed", true), Map.of("t", 40L));
        assertThat(stats.getNodeFailures()).isEqualTo(1);
        assertThat(stats.getFailed()).isZero();
    }

    @Test
    void aFailureWithNoFailureConnectionMarksTheMessageFailed() {
        start(1, "{'nodes': [{'id': 'hot', 'type': 'filter', 'configuration': {'condition': 'data.t'}}]}");

        TbMsg msg = send(Map.of("t", 1L));

        await().atMost(WAIT).until(() -> msg.tracker().isFinished());
        assertThat(msg.tracker().isFailed()).isTrue();
        assertThat(stats.getFailed()).isEqualTo(1);
    }

    @Test
    void aStorageFailureReachesTheSenderWithTheDatabasesReasonButNotTheSql() {
        start(1, "{'nodes': [{'id': 'save', 'type': 'save-timeseries'}]}");
        // the save's batch failed after the node's actor had gone on: the failure comes through the future
        doReturn(CompletableFuture.failedFuture(new DataAccessResourceFailureException(
                "PreparedStatementCallback; SQL [INSERT INTO ts_kv (device_id) VALUES (?)]; Database is already closed",
                new SQLException("Database is already closed [90121-240]"))))
                .when(mocks.timeseriesDao()).save(any(), anyLong(), any());
        AtomicReference<RuntimeException> failure = new AtomicReference<>();

        send(Map.of("t", 1L), new TbMsgCallback() {
            @Override
            public void onSuccess() {
            }

            @Override
            public void onFailure(RuntimeException e) {
                failure.set(e);
            }
        });

        await().atMost(WAIT).until(() -> failure.get() != null);
        assertThat(failure.get()).isInstanceOf(RuleChainFailureException.class)
                .hasMessageContaining("rule node 'save' failed: DataAccessResourceFailureException")
                .hasMessageContaining("Database is already closed")
                .hasMessageNotContaining("INSERT");
    }

    @Test
    void aSaveIsDoneOnlyWhenItsFutureCompletesAndItsActorDoesNotWaitForIt() {
        start(1, """
                {'nodes': [{'id': 's', 'type': 'save-timeseries'}, {'id': 'after', 'type': 'transform',
                            'configuration': {'set': {'after': 'true'}}}],
                 'connections': [{'from': 's', 'to': 'after', 'relation': 'Success'}]}
                """);
        List<CompletableFuture<Void>> pending = Collections.synchronizedList(new ArrayList<>());
        doAnswer(call -> {
            CompletableFuture<Void> commit = new CompletableFuture<>();
            pending.add(commit);
            return commit;
        }).when(mocks.timeseriesDao()).save(any(), anyLong(), any());

        TbMsg first = send(Map.of("seq", 1L));
        TbMsg second = send(Map.of("seq", 2L));

        // the node's actor took the second message while the first one's save was still queued
        await().atMost(WAIT).until(() -> pending.size() == 2);
        assertThat(first.tracker().isFinished()).isFalse();
        assertThat(second.tracker().isFinished()).isFalse();

        pending.get(0).complete(null);
        await().atMost(WAIT).until(() -> first.tracker().isFinished());
        assertThat(first.tracker().isFailed()).isFalse();
        assertThat(second.tracker().isFinished()).as("its batch is not committed yet").isFalse();

        pending.get(1).completeExceptionally(new IllegalStateException("write queue 'ts_kv' is full"));
        await().atMost(WAIT).until(() -> second.tracker().isFinished());
        assertThat(second.tracker().isFailed()).isTrue();
        assertThat(stats.getNodeFailures()).isEqualTo(1);
    }

    @Test
    void aMessageRoutedToTwoNodesIsProcessedOnceBothCopiesEnd() {
        start(1, """
                {'nodes': [{'id': 'in', 'type': 'log'}, {'id': 'a', 'type': 'save-timeseries'}, {'id': 'b', 'type': 'save-timeseries'}],
                 'connections': [{'from': 'in', 'to': 'a', 'relation': 'Success'}, {'from': 'in', 'to': 'b', 'relation': 'Success'}]}
                """);

        TbMsg msg = send(Map.of("x", 1L));

        await().atMost(WAIT).until(() -> msg.tracker().isFinished());
        assertThat(saved).hasSize(2);
        assertThat(stats.getProcessed()).isEqualTo(1);
    }

    @Test
    void oneOriginatorsMessagesLeaveAChainOfSeveralNodesInOrder() {
        start(1, """
                {'nodes': [{'id': 'f', 'type': 'filter', 'configuration': {'condition': 'data.seq >= 0'}},
                           {'id': 't', 'type': 'transform', 'configuration': {'set': {'double': 'data.seq * 2'}}},
                           {'id': 's', 'type': 'save-timeseries'}],
                 'connections': [{'from': 'f', 'to': 't', 'relation': 'True'}, {'from': 't', 'to': 's', 'relation': 'Success'}]}
                """);

        for (long seq = 0; seq < 500; seq++) {
            send(Map.of("seq", seq));
        }

        await().atMost(WAIT).until(() -> saved.size() == 500);
        assertThat(saved.stream().map(data -> (Long) data.get("seq")).toList())
                .isSorted().doesNotHaveDuplicates().hasSize(500);
        await().atMost(WAIT).until(() -> stats.getProcessed() == 500);
    }

    @Test
    void anUpdateRecreatesTheNodeActorsAndLosesNothingInFlight() {
        start(1, "{'nodes': [{'id': 's', 'type': 'save-timeseries'}]}");
        for (long seq = 0; seq < 300; seq++) {
            send(Map.of("seq", seq));
        }
        // the chain actor has loaded version 1 (a message went through): stubbing again cannot race with its init
        await().atMost(WAIT).until(() -> stats.getProcessed() > 0);

        chainIs(2, """
                {'nodes': [{'id': 'mark', 'type': 'transform', 'configuration': {'set': {'v2': 'true'}}},
                           {'id': 's', 'type': 'save-timeseries'}],
                 'connections': [{'from': 'mark', 'to': 's', 'relation': 'Success'}]}
                """);
        chainActor.tellWithHighPriority(new ReloadRuleChainMsg());
        for (long seq = 300; seq < 400; seq++) {
            send(Map.of("seq", seq));
        }

        await().atMost(WAIT).until(() -> stats.getProcessed() == 400);
        assertThat(stats.getLost()).isZero();
        assertThat(saved.stream().map(data -> data.get("seq")).distinct().count()).isEqualTo(400);
        assertThat(saved.stream().filter(data -> ((Long) data.get("seq")) >= 300))
                .as("messages after the update see the new chain").allMatch(data -> data.containsKey("v2"));
        await().atMost(WAIT).until(() -> system.getActor(IotActorIds.ruleNode(CHAIN, 1, "s")) == null);
        assertThat(system.getActor(IotActorIds.ruleNode(CHAIN, 2, "s"))).isNotNull();
        assertThat(system.getActor(IotActorIds.ruleNode(CHAIN, 2, "mark"))).isNotNull();
    }

    @Test
    void aPackOfReadingsTravelsTheChainAsOneActorMessagePerNode() {
        start(1, """
                {'nodes': [{'id': 'f', 'type': 'filter', 'configuration': {'condition': 'data.seq >= 0'}},
                           {'id': 't', 'type': 'transform', 'configuration': {'set': {'double': 'data.seq * 2'}}},
                           {'id': 's', 'type': 'save-timeseries'}],
                 'connections': [{'from': 'f', 'to': 't', 'relation': 'True'}, {'from': 't', 'to': 's', 'relation': 'Success'}]}
                """);
        CompletableFuture<Void> done = new CompletableFuture<>();

        sendPack(1000, seq -> Map.of("seq", seq), new MsgPackCallback(1000, done));

        await().atMost(WAIT).until(done::isDone);
        assertThat(done).isCompleted();
        assertThat(saved.stream().map(data -> (Long) data.get("double")).toList())
                .as("every reading, in the pack's order").hasSize(1000).isSorted().doesNotHaveDuplicates();
        // three nodes: one pack each; the chain actor: the pack in and three packs back
        await().atMost(WAIT).until(() -> processed("RuleChainActor") == 4);
        assertThat(processed("RuleNodeActor")).isEqualTo(3);
        assertThat(stats.getProcessed()).isEqualTo(1000);
    }

    @Test
    void aFilterSplitsAPackByOutcomeAndTheRequestCompletesOnceEveryReadingsBranchesAreDone() {
        start(1, """
                {'nodes': [{'id': 'hot', 'type': 'filter', 'configuration': {'condition': 'data.t > 30'}},
                           {'id': 'mark', 'type': 'transform', 'configuration': {'set': {'hot': 'true'}}},
                           {'id': 'save', 'type': 'save-timeseries'}],
                 'connections': [{'from': 'hot', 'to': 'mark', 'relation': 'True'},
                                 {'from': 'hot', 'to': 'save', 'relation': 'False'},
                                 {'from': 'mark', 'to': 'save', 'relation': 'Success'}]}
                """);
        List<CompletableFuture<Void>> pending = Collections.synchronizedList(new ArrayList<>());
        doAnswer(call -> {
            saved.add(call.getArgument(2));
            CompletableFuture<Void> commit = new CompletableFuture<>();
            pending.add(commit);
            return commit;
        }).when(mocks.timeseriesDao()).save(any(), anyLong(), any());
        CompletableFuture<Void> done = new CompletableFuture<>();

        // even readings hot, odd ones not: the filter's pack leaves as two packs, which meet again at the save node
        List<TbMsg> msgs = sendPack(10, seq -> Map.of("seq", seq, "t", seq % 2 == 0 ? 40L : 20L), new MsgPackCallback(10, done));

        await().atMost(WAIT).until(() -> pending.size() == 10);
        assertThat(saved.stream().filter(data -> data.containsKey("hot")).map(data -> (Long) data.get("seq")).toList())
                .containsExactly(0L, 2L, 4L, 6L, 8L);
        assertThat(saved.stream().filter(data -> !data.containsKey("hot")).map(data -> (Long) data.get("seq")).toList())
                .containsExactly(1L, 3L, 5L, 7L, 9L);
        // every save but one committed: no reading's branch may count as done for the request yet
        for (int i = 0; i < 9; i++) {
            pending.get(i).complete(null);
        }
        await().atMost(WAIT).until(() -> msgs.stream().filter(msg -> msg.tracker().isFinished()).count() >= 4);
        assertThat(done).isNotDone();

        pending.get(9).complete(null);
        await().atMost(WAIT).until(done::isDone);
        assertThat(done).isCompleted();
        assertThat(msgs).allMatch(msg -> msg.tracker().isFinished() && !msg.tracker().isFailed());
        assertThat(stats.getProcessed()).isEqualTo(10);
    }

    @Test
    void aPackWhoseSavesCompleteInReverseGoesOnOnceTheLastIsStoredAndInItsOrder() {
        List<CompletableFuture<Void>> saves = new CopyOnWriteArrayList<>();
        doAnswer(call -> {
            saved.add(call.getArgument(2));
            CompletableFuture<Void> save = new CompletableFuture<>();
            saves.add(save);
            return save;
        }).when(mocks.timeseriesDao()).save(any(), anyLong(), any());
        start(1, """
                {'nodes': [{'id': 'save', 'type': 'save-timeseries'},
                           {'id': 'mark', 'type': 'transform', 'configuration': {'set': {'after': 'true'}}},
                           {'id': 'save-after', 'type': 'save-timeseries'}],
                 'connections': [{'from': 'save', 'to': 'mark', 'relation': 'Success'},
                                 {'from': 'mark', 'to': 'save-after', 'relation': 'Success'}]}
                """);
        CompletableFuture<Void> done = new CompletableFuture<>();
        sendPack(5, seq -> Map.of("seq", seq), new MsgPackCallback(5, done));
        await().atMost(WAIT).until(() -> saves.size() == 5);

        // the first save stored last: the pack waits for it, whatever the others did
        for (int i = 4; i >= 1; i--) {
            saves.get(i).complete(null);
        }
        assertThat(saves).as("the pack's next node runs on its last save").hasSize(5);
        saves.get(0).complete(null);

        await().atMost(WAIT).until(() -> saves.size() == 10);
        assertThat(saved.subList(5, 10).stream().map(data -> (Long) data.get("seq")).toList()).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(saved.subList(5, 10)).allMatch(data -> Boolean.TRUE.equals(data.get("after")));
        assertThat(done).isNotDone();
        saves.subList(5, 10).forEach(save -> save.complete(null));
        await().atMost(WAIT).until(done::isDone);
        assertThat(done).isCompleted();
        assertThat(stats.getProcessed()).isEqualTo(5);
    }

    @Test
    void aReadingThatFailsInAPackFailsTheRequestWhileTheOthersOfThePackAreStored() {
        start(1, """
                {'nodes': [{'id': 'hot', 'type': 'filter', 'configuration': {'condition': 'data.t > 30'}},
                           {'id': 'save', 'type': 'save-timeseries'}],
                 'connections': [{'from': 'hot', 'to': 'save', 'relation': 'True'},
                                 {'from': 'hot', 'to': 'save', 'relation': 'False'}]}
                """);
        CompletableFuture<Void> done = new CompletableFuture<>();

        sendPack(5, seq -> Map.of("seq", seq, "t", seq == 2 ? "not a number" : 40L), new MsgPackCallback(5, done));

        await().atMost(WAIT).until(done::isDone);
        assertThat(done).isCompletedExceptionally();
        assertThatThrownBy(done::join).hasCauseInstanceOf(RuleChainFailureException.class)
                .hasMessageContaining("rule node 'hot' failed");
        assertThat(saved.stream().map(data -> (Long) data.get("seq")).toList()).containsExactly(0L, 1L, 3L, 4L);
        assertThat(stats.getFailed()).isEqualTo(1);
        assertThat(stats.getProcessed()).isEqualTo(4);
    }

    private long processed(String actorType) {
        LongAdder count = processedByType.get(actorType);
        return count == null ? 0 : count.sum();
    }

    private List<TbMsg> sendPack(int size, LongFunction<Map<String, Object>> data, TbMsgCallback callback) {
        List<TbMsg> msgs = new ArrayList<>(size);
        for (long seq = 0; seq < size; seq++) {
            msgs.add(new TbMsg(UUID.randomUUID(), TbMsgType.POST_TELEMETRY_REQUEST, TENANT, DEVICE, 1000 + seq,
                    new LinkedHashMap<>(data.apply(seq)), Map.of(), new TbMsgTracker(stats, callback)));
        }
        chainActor.tell(new ToRuleEnginePackMsg(msgs));
        return msgs;
    }

    private void start(long version, String chainJson) {
        chainIs(version, chainJson);
        RuleEngineContext context = new RuleEngineContext(new SampleRuleChainSource(chainService), mocks.registry(), new RuleNodeStats(),
                stats, IotDispatchers.RULE, new DatabaseFailureReason()::reason);
        chainActor = system.createRootActor(IotDispatchers.RULE, TbActorCreator.of(IotActorIds.ruleChain(CHAIN),
                () -> new RuleChainActor(context, TENANT, CHAIN)));
    }

    private void chainIs(long version, String chainJson) {
        currentChain = new RuleChain(CHAIN, TENANT, "chain", true, json(chainJson).toString(), 0, 0, version);
    }

    private TbMsg send(Map<String, Object> data) {
        return send(data, TbMsgCallback.NONE);
    }

    private TbMsg send(Map<String, Object> data, TbMsgCallback callback) {
        TbMsg msg = new TbMsg(UUID.randomUUID(), TbMsgType.POST_TELEMETRY_REQUEST, TENANT, DEVICE, 1000,
                new LinkedHashMap<>(data), Map.of(), new TbMsgTracker(stats, callback));
        chainActor.tell(new ToRuleEngineMsg(msg));
        return msg;
    }
}
