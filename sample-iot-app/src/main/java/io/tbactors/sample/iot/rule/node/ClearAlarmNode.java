package io.tbactors.sample.iot.rule.node;

import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.node.Relations;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.node.TbNodeCallback;
import io.tbactors.rule.node.TbNodeContext;
import io.tbactors.rule.spel.MsgExpression;
import io.tbactors.sample.iot.alarm.Alarm;
import io.tbactors.sample.iot.alarm.AlarmService;
import org.springframework.stereotype.Component;

/**
 * {@code clear-alarm}: when {@code condition} holds and the device has an active alarm of {@code alarmType}, clears
 * it and leaves on {@code Cleared}; otherwise leaves on {@code False}.
 */
@Component
public final class ClearAlarmNode implements TbNode<ClearAlarmNode.Config> {

    /** An active alarm was cleared. */
    public static final String CLEARED = "Cleared";

    private final AlarmService alarmService;

    /**
     * @param alarmType the alarm type
     * @param condition when to clear
     */
    public record Config(@JsonProperty(required = true) String alarmType, @JsonProperty(required = true) MsgExpression condition) {
    }

    /** @param alarmService clears alarms */
    public ClearAlarmNode(AlarmService alarmService) {
        this.alarmService = alarmService;
    }

    @Override
    public String type() {
        return "clear-alarm";
    }

    @Override
    public Class<Config> configurationType() {
        return Config.class;
    }

    @Override
    public Set<String> relations(Config configuration) {
        return Set.of(CLEARED, Relations.FALSE);
    }

    @Override
    public void onMsg(TbNodeContext<Config> ctx, TbMsg msg, TbNodeCallback callback) {
        Config config = ctx.configuration();
        if (!config.condition().test(msg)) {
            callback.tellNext(msg, Relations.FALSE);
            return;
        }
        Optional<Alarm> cleared = alarmService.clear(msg.originatorId(), config.alarmType(), msg.ts());
        if (cleared.isPresent()) {
            callback.tellNext(msg.withMetadata("alarmId", cleared.get().id().toString()), CLEARED);
        } else {
            callback.tellNext(msg, Relations.FALSE);
        }
    }
}
