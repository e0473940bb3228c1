package io.tbactors.sample.iot.rule.node;

import io.tbactors.sample.iot.rule.TbMsg;
import io.tbactors.sample.iot.rule.TbMsgType;
import io.tbactors.sample.iot.telemetry.TimeseriesDao;

/**
 * {@code save-timeseries}: stores the data of a telemetry message as readings at the message's time (history and
 * latest). Other message types fail.
 */
public final class SaveTimeseriesNode implements RuleNode {

    private final TimeseriesDao timeseriesDao;

    /** @param timeseriesDao where readings go */
    public SaveTimeseriesNode(TimeseriesDao timeseriesDao) {
        this.timeseriesDao = timeseriesDao;
    }

    @Override
    public RuleNodeResult onMsg(TbMsg msg) {
        requireType(msg, TbMsgType.POST_TELEMETRY_REQUEST, "save-timeseries");
        timeseriesDao.save(msg.originatorId(), msg.ts(), msg.data());
        return RuleNodeResult.of(msg, Relations.SUCCESS);
    }

    static void requireType(TbMsg msg, String type, String nodeType) {
        if (!type.equals(msg.type())) {
            throw new RuleNodeException(nodeType + " expects a " + type + " message, got " + msg.type());
        }
    }
}
