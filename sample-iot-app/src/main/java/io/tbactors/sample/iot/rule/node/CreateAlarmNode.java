package io.tbactors.sample.iot.rule.node;

import io.tbactors.sample.iot.alarm.AlarmService;
import io.tbactors.sample.iot.alarm.AlarmSeverity;
import io.tbactors.sample.iot.rule.TbMsg;
import org.springframework.expression.Expression;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code create-alarm}: when {@code condition} holds, raises an alarm of {@code alarmType} with {@code severity} on
 * the message's device and leaves on {@code Created}; when that alarm is already active it is updated, not
 * duplicated, and the message leaves on {@code Updated}. When the condition does not hold: {@code False}.
 */
public final class CreateAlarmNode implements RuleNode {

    private final AlarmService alarmService;
    private final JsonMapper jsonMapper;
    private final String alarmType;
    private final AlarmSeverity severity;
    private final Expression condition;

    /**
     * @param alarmService raises alarms
     * @param jsonMapper writes the alarm's details
     * @param alarmType the alarm type
     * @param condition when to raise
     */
    public CreateAlarmNode(AlarmService alarmService, JsonMapper jsonMapper, String alarmType, AlarmSeverity severity,
                           Expression condition) {
        this.alarmService = alarmService;
        this.jsonMapper = jsonMapper;
        this.alarmType = alarmType;
        this.severity = severity;
        this.condition = condition;
    }

    @Override
    public RuleNodeResult onMsg(TbMsg msg) {
        if (!MsgExpressions.test(condition, msg)) {
            return RuleNodeResult.of(msg, Relations.FALSE);
        }
        AlarmService.RaiseResult result = alarmService.raise(msg.tenantId(), msg.originatorId(), alarmType, severity, msg.ts(),
                jsonMapper.writeValueAsString(msg.data()));
        return RuleNodeResult.of(msg.withMetadata("alarmId", result.alarm().id().toString()),
                result.created() ? Relations.CREATED : Relations.UPDATED);
    }
}
