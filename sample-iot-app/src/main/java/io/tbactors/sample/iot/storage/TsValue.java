package io.tbactors.sample.iot.storage;

/**
 * One stored value with its time.
 *
 * @param ts epoch milliseconds of the reading
 * @param value a Boolean, Long, Double, String, or a Map or List for JSON values
 */
public record TsValue(long ts, Object value) {
}
