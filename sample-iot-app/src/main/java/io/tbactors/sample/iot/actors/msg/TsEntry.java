package io.tbactors.sample.iot.actors.msg;

import java.util.Map;

/**
 * Readings of one time: what one element of a telemetry post carries.
 *
 * @param ts epoch milliseconds given by the device, or null to let the server stamp it
 * @param values key to normalized value, in the order posted
 */
public record TsEntry(Long ts, Map<String, Object> values) {
}
