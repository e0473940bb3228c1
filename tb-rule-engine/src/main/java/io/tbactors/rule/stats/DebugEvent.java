package io.tbactors.rule.stats;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One message in or out of a node in debug mode, as ThingsBoard's debug events show it.
 *
 * @param time when, epoch milliseconds
 * @param direction {@code IN} or {@code OUT}
 * @param msgId the message's id
 * @param msgType its type
 * @param data its data
 * @param metadata its metadata
 * @param relations the relations it left on ({@code OUT} only)
 * @param error why the node failed ({@code OUT} on {@code Failure} only)
 */
public record DebugEvent(long time, String direction, UUID msgId, String msgType, Map<String, Object> data,
                         Map<String, String> metadata, List<String> relations, String error) {
}
