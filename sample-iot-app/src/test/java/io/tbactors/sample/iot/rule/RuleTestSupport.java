package io.tbactors.sample.iot.rule;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.sample.iot.alarm.AlarmService;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgCallback;
import io.tbactors.rule.TbMsgTracker;
import io.tbactors.rule.TbMsgType;
import io.tbactors.rule.node.RuleNodeRegistry;
import io.tbactors.rule.node.TbNode;
import io.tbactors.sample.iot.rule.node.ClearAlarmNode;
import io.tbactors.sample.iot.rule.node.CreateAlarmNode;
import io.tbactors.sample.iot.rule.node.RpcCallReplyNode;
import io.tbactors.sample.iot.rule.node.SaveAttributesNode;
import io.tbactors.sample.iot.rule.node.SaveTimeseriesNode;
import io.tbactors.sample.iot.stats.IotStats;
import io.tbactors.sample.iot.storage.AttributesDao;
import io.tbactors.sample.iot.storage.TimeseriesDao;
import io.tbactors.spring.ActorSystemContext;
import org.springframework.beans.factory.ObjectProvider;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Shared helpers of the sample's rule tests: a node registry over mocks, messages, JSON.
 */
public final class RuleTestSupport {

    /** A JSON mapper like the application's. */
    public static final JsonMapper JSON = JsonMapper.builder().build();

    private RuleTestSupport() {
    }

    /** The mocks behind a factory. */
    public record Mocks(TimeseriesDao timeseriesDao, AttributesDao attributesDao, AlarmService alarmService,
                        ActorSystemContext actors, List<TbNode<?>> nodes, RuleNodeRegistry registry) {
    }

    /**
     * @return a node registry (built-in types and the sample's) whose storage is mocked (saves are committed at once
     *     unless a test says otherwise)
     */
    public static Mocks mocks() {
        TimeseriesDao timeseriesDao = mock(TimeseriesDao.class);
        AttributesDao attributesDao = mock(AttributesDao.class);
        when(timeseriesDao.save(any(), anyLong(), any())).thenReturn(CompletableFuture.completedFuture(null));
        when(attributesDao.save(any(), anyLong(), any())).thenReturn(CompletableFuture.completedFuture(null));
        AlarmService alarmService = mock(AlarmService.class);
        ActorSystemContext actors = mock(ActorSystemContext.class);
        @SuppressWarnings("unchecked")
        ObjectProvider<ActorSystemContext> actorsProvider = mock(ObjectProvider.class);
        when(actorsProvider.getObject()).thenReturn(actors);
        List<TbNode<?>> nodes = List.of(new SaveTimeseriesNode(timeseriesDao), new SaveAttributesNode(attributesDao),
                new CreateAlarmNode(alarmService, JSON), new ClearAlarmNode(alarmService), new RpcCallReplyNode(actorsProvider, JSON));
        return new Mocks(timeseriesDao, attributesDao, alarmService, actors, nodes, RuleNodeRegistry.withBuiltIns(nodes, JSON));
    }

    /**
     * @param json a JSON text, single quotes allowed for readability
     * @return the tree
     */
    public static JsonNode json(String json) {
        return JSON.readTree(json.replace('\'', '"'));
    }

    /**
     * @param stats counts the outcome
     * @param type the message type
     * @return a message from a random device at time 1000
     */
    public static TbMsg msg(IotStats stats, String type, Map<String, Object> data) {
        return new TbMsg(UUID.randomUUID(), type, UUID.randomUUID(), UUID.randomUUID(), 1000, new LinkedHashMap<>(data),
                Map.of("deviceName", "d1"), new TbMsgTracker(stats, TbMsgCallback.NONE));
    }

    /**
     * @return a telemetry message
     */
    public static TbMsg telemetry(Map<String, Object> data) {
        return msg(new IotStats(), TbMsgType.POST_TELEMETRY_REQUEST, data);
    }
}
