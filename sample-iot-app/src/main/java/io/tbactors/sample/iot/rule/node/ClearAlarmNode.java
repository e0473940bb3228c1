package io.tbactors.sample.iot.rule.node;

import java.util.Optional;

import io.tbactors.sample.iot.alarm.Alarm;
import io.tbactors.sample.iot.alarm.AlarmService;
import io.tbactors.sample.iot.rule.TbMsg;
import org.springframework.expression.Expression;

/**
 * {@code clear-alarm}: when {@code condition} holds and the device has an active alarm of {@code alarmType}, clears
 * it and leaves on {@code Cleared}; otherwise leaves on {@code False}.
 */
public final class ClearAlarmNode implements RuleNode {

    private final AlarmService alarmService;
    private final String alarmType;
    private final Expression condition;

    /**
     * @param alarmService clears alarms
     * @param alarmType the alarm type
     * @param condition when to clear
     */
    public ClearAlarmNode(AlarmService alarmService, String alarmType, Expression condition) {
        this.alarmService = alarmService;
        this.alarmType = alarmType;
        this.condition = condition;
    }

    @Override
    public RuleNodeResult onMsg(TbMsg msg) {
        if (!MsgExpressions.test(condition, msg)) {
            return RuleNodeResult.of(msg, Relations.FALSE);
        }
        Optional<Alarm> cleared = alarmService.clear(msg.originatorId(), alarmType, msg.ts());
        return cleared.map(alarm -> RuleNodeResult.of(msg.withMetadata("alarmId", alarm.id().toString()), Relations.CLEARED))
                .orElseGet(() -> RuleNodeResult.of(msg, Relations.FALSE));
    }
}
