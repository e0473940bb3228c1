package io.tbactors.sample.iot.rule.node;

import java.util.Set;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgType;
import io.tbactors.rule.node.Relations;
import io.tbactors.rule.node.RuleNodeException;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.node.TbNodeCallback;
import io.tbactors.rule.node.TbNodeContext;
import io.tbactors.sample.iot.storage.TimeseriesDao;
import org.springframework.stereotype.Component;

/**
 * {@code save-timeseries}: stores the data of a telemetry message as readings at the message's time (history and
 * latest); the message leaves on {@code Success} when they are committed. Other message types fail.
 */
@Component
public final class SaveTimeseriesNode implements TbNode<Void> {

    private final TimeseriesDao timeseriesDao;

    /** @param timeseriesDao where readings go */
    public SaveTimeseriesNode(TimeseriesDao timeseriesDao) {
        this.timeseriesDao = timeseriesDao;
    }

    @Override
    public String type() {
        return "save-timeseries";
    }

    @Override
    public Class<Void> configurationType() {
        return Void.class;
    }

    @Override
    public Set<String> relations(Void configuration) {
        return Set.of(Relations.SUCCESS);
    }

    @Override
    public void onMsg(TbNodeContext<Void> ctx, TbMsg msg, TbNodeCallback callback) {
        requireType(msg, TbMsgType.POST_TELEMETRY_REQUEST, type());
        callback.tellSuccessWhen(timeseriesDao.save(msg.originatorId(), msg.ts(), msg.data()), msg);
    }

    static void requireType(TbMsg msg, String type, String nodeType) {
        if (!type.equals(msg.type())) {
            throw new RuleNodeException(nodeType + " expects a " + type + " message, got " + msg.type());
        }
    }
}
