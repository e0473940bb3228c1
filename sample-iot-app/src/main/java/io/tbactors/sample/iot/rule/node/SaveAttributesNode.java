package io.tbactors.sample.iot.rule.node;

import io.tbactors.sample.iot.rule.TbMsg;
import io.tbactors.sample.iot.rule.TbMsgType;
import io.tbactors.sample.iot.telemetry.AttributesDao;

/**
 * {@code save-attributes}: stores the data of an attributes message as the device's attributes. Other message
 * types fail.
 */
public final class SaveAttributesNode implements RuleNode {

    private final AttributesDao attributesDao;

    /** @param attributesDao where attributes go */
    public SaveAttributesNode(AttributesDao attributesDao) {
        this.attributesDao = attributesDao;
    }

    @Override
    public RuleNodeResult onMsg(TbMsg msg) {
        SaveTimeseriesNode.requireType(msg, TbMsgType.POST_ATTRIBUTES_REQUEST, "save-attributes");
        attributesDao.save(msg.originatorId(), msg.ts(), msg.data());
        return RuleNodeResult.of(msg, Relations.SUCCESS);
    }
}
