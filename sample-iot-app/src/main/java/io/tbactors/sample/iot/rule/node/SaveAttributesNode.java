package io.tbactors.sample.iot.rule.node;

import java.util.Set;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgType;
import io.tbactors.rule.node.Relations;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.node.TbNodeCallback;
import io.tbactors.rule.node.TbNodeContext;
import io.tbactors.sample.iot.storage.AttributesDao;
import org.springframework.stereotype.Component;

/**
 * {@code save-attributes}: stores the data of an attributes message as the device's attributes; the message leaves
 * on {@code Success} when they are committed. Other message types fail.
 */
@Component
public final class SaveAttributesNode implements TbNode<Void> {

    private final AttributesDao attributesDao;

    /** @param attributesDao where attributes go */
    public SaveAttributesNode(AttributesDao attributesDao) {
        this.attributesDao = attributesDao;
    }

    @Override
    public String type() {
        return "save-attributes";
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
        SaveTimeseriesNode.requireType(msg, TbMsgType.POST_ATTRIBUTES_REQUEST, type());
        callback.tellSuccessWhen(attributesDao.save(msg.originatorId(), msg.ts(), msg.data()), msg);
    }
}
