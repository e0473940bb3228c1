package io.tbactors.rule.node;

import java.util.UUID;

/**
 * One node of a chain, as its type sees it.
 *
 * @param chainId the chain
 * @param nodeId the node's id in the chain
 * @param nodeName the node's readable name
 * @param configuration its bound configuration (null for {@code Void})
 * @param <C> the configuration type
 */
public record TbNodeContext<C>(UUID chainId, String nodeId, String nodeName, C configuration) {
}
