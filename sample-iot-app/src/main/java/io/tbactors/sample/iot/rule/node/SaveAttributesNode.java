package io.tbactors.sample.iot.rule.node;

import java.util.concurrent.CompletableFuture;

import io.tbactors.sample.iot.rule.TbMsg;
import io.tbactors.sample.iot.rule.TbMsgType;
import io.tbactors.sample.iot.telemetry.AttributesDao;

/**
 * {@code save-attributes}: stores the data of an attributes message as the device's attributes. Other message
 * types fail. Done when they are committed.
 */
public final class SaveAttributesNode implements RuleNode {

    private final AttributesDao attributesDao;

    /** @param attributesDao where attributes go */
    public SaveAttributesNode(AttributesDao attributesDao) {
        this.attributesDao = attributesDao;
    }

    @Override
    public CompletableFuture<RuleNodeResult> onMsgAsync(TbMsg msg) {
        SaveTimeseriesNode.requireType(msg, TbMsgType.POST_ATTRIBUTES_REQUEST, "save-attributes");
        return attributesDao.save(msg.originatorId(), msg.ts(), msg.data())
                .thenApply(committed -> RuleNodeResult.of(msg, Relations.SUCCESS));
    }

    /** Waits until the save is committed; the node's actor uses {@link #onMsgAsync} and does not wait. */
    @Override
    public RuleNodeResult onMsg(TbMsg msg) throws Exception {
        return RuleNode.await(onMsgAsync(msg));
    }
}
