package io.tbactors.rule.stats;

import java.util.UUID;

/**
 * Where per-node figures go besides {@link RuleNodeStats}, e.g. Micrometer meters. Asked once per node.
 */
public interface RuleNodeMeters {

    /** No meters. */
    RuleNodeMeters NONE = (chainId, nodeId, type) -> NodeMeters.NONE;

    /**
     * @param chainId the chain
     * @param nodeId the node's id in it
     * @param type the node type
     * @return the node's meters
     */
    NodeMeters forNode(UUID chainId, String nodeId, String type);

    /** One node's meters. */
    interface NodeMeters {

        /** Records nothing. */
        NodeMeters NONE = new NodeMeters() {
        };

        /** A message came in. */
        default void in() {
        }

        /** @param relation a message left on it */
        default void out(String relation) {
        }

        /** The node failed on a message. */
        default void failure() {
        }

        /** @param nanos how long a message took, from the call to its callback */
        default void processed(long nanos) {
        }
    }
}
