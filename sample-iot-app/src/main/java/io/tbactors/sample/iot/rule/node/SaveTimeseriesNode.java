package io.tbactors.sample.iot.rule.node;

import java.util.concurrent.CompletableFuture;

import io.tbactors.sample.iot.rule.TbMsg;
import io.tbactors.sample.iot.rule.TbMsgType;
import io.tbactors.sample.iot.telemetry.TimeseriesDao;

/**
 * {@code save-timeseries}: stores the data of a telemetry message as readings at the message's time (history and
 * latest), done when they are committed. Other message types fail.
 */
public final class SaveTimeseriesNode implements RuleNode {

    private final TimeseriesDao timeseriesDao;

    /** @param timeseriesDao where readings go */
    public SaveTimeseriesNode(TimeseriesDao timeseriesDao) {
        this.timeseriesDao = timeseriesDao;
    }

    @Override
    public CompletableFuture<RuleNodeResult> onMsgAsync(TbMsg msg) {
        requireType(msg, TbMsgType.POST_TELEMETRY_REQUEST, "save-timeseries");
        return timeseriesDao.save(msg.originatorId(), msg.ts(), msg.data())
                .thenApply(committed -> RuleNodeResult.of(msg, Relations.SUCCESS));
    }

    /** Waits until the save is committed; the node's actor uses {@link #onMsgAsync} and does not wait. */
    @Override
    public RuleNodeResult onMsg(TbMsg msg) throws Exception {
        return RuleNode.await(onMsgAsync(msg));
    }

    static void requireType(TbMsg msg, String type, String nodeType) {
        if (!type.equals(msg.type())) {
            throw new RuleNodeException(nodeType + " expects a " + type + " message, got " + msg.type());
        }
    }
}
