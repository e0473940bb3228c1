package io.tbactors.sample.iot.rule.node;

import java.util.Set;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.node.Relations;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.node.TbNodeCallback;
import io.tbactors.rule.node.TbNodeContext;
import io.tbactors.rule.spel.MsgExpression;
import io.tbactors.sample.iot.alarm.AlarmService;
import io.tbactors.sample.iot.alarm.AlarmSeverity;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code create-alarm}: when {@code condition} holds, raises an alarm of {@code alarmType} with {@code severity}
 * (default {@code MAJOR}) on the message's device and leaves on {@code Created}; when that alarm is already active it
 * is updated, not duplicated, and the message leaves on {@code Updated}. When the condition does not hold: {@code False}.
 */
@Component
public final class CreateAlarmNode implements TbNode<CreateAlarmNode.Config> {

    /** An alarm was created. */
    public static final String CREATED = "Created";
    /** The alarm was already active; it was updated, not duplicated. */
    public static final String UPDATED = "Updated";

    private final AlarmService alarmService;
    private final JsonMapper jsonMapper;

    /**
     * @param alarmType the alarm type
     * @param severity the severity, {@code MAJOR} when absent
     * @param condition when to raise
     */
    public record Config(@JsonProperty(required = true) String alarmType, AlarmSeverity severity,
                         @JsonProperty(required = true) MsgExpression condition) {

        /** The severity defaults to {@code MAJOR}. */
        public Config {
            severity = severity == null ? AlarmSeverity.MAJOR : severity;
        }
    }

    /**
     * @param alarmService raises alarms
     * @param jsonMapper writes the alarm's details
     */
    public CreateAlarmNode(AlarmService alarmService, JsonMapper jsonMapper) {
        this.alarmService = alarmService;
        this.jsonMapper = jsonMapper;
    }

    @Override
    public String type() {
        return "create-alarm";
    }

    @Override
    public Class<Config> configurationType() {
        return Config.class;
    }

    @Override
    public Set<String> relations(Config configuration) {
        return Set.of(CREATED, UPDATED, Relations.FALSE);
    }

    @Override
    public void onMsg(TbNodeContext<Config> ctx, TbMsg msg, TbNodeCallback callback) {
        Config config = ctx.configuration();
        if (!config.condition().test(msg)) {
            callback.tellNext(msg, Relations.FALSE);
            return;
        }
        AlarmService.RaiseResult result = alarmService.raise(msg.tenantId(), msg.originatorId(), config.alarmType(), config.severity(),
                msg.ts(), jsonMapper.writeValueAsString(msg.data()));
        callback.tellNext(msg.withMetadata("alarmId", result.alarm().id().toString()), result.created() ? CREATED : UPDATED);
    }
}
