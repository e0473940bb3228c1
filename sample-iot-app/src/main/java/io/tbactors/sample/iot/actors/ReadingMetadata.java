package io.tbactors.sample.iot.actors;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A reading's rule-engine metadata, as ThingsBoard gives it: {@code deviceName}, {@code deviceType} and {@code ts}
 * (the reading's time in epoch milliseconds, as text). Unmodifiable. It holds the time as a number and makes its text
 * only when asked: a message lives until its chain is done with it (for a save, until its batch commits), and this map
 * is 32 bytes where a map of three entries with the time's text was about 150, for each of a body's 8,000 readings.
 */
final class ReadingMetadata extends AbstractMap<String, String> {

    static final String DEVICE_NAME = "deviceName";
    static final String DEVICE_TYPE = "deviceType";
    static final String TS = "ts";

    private final String deviceName;
    private final String deviceType;
    private final long ts;

    /**
     * @param deviceName the device's name
     * @param deviceType the device's type
     * @param ts the reading's time, epoch milliseconds
     */
    ReadingMetadata(String deviceName, String deviceType, long ts) {
        this.deviceName = Objects.requireNonNull(deviceName, "deviceName");
        this.deviceType = Objects.requireNonNull(deviceType, "deviceType");
        this.ts = ts;
    }

    @Override
    public String get(Object key) {
        if (DEVICE_NAME.equals(key)) {
            return deviceName;
        }
        if (DEVICE_TYPE.equals(key)) {
            return deviceType;
        }
        return TS.equals(key) ? Long.toString(ts) : null;
    }

    @Override
    public boolean containsKey(Object key) {
        return DEVICE_NAME.equals(key) || DEVICE_TYPE.equals(key) || TS.equals(key);
    }

    @Override
    public int size() {
        return 3;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, String>> iterator() {
                return List.of(Map.entry(DEVICE_NAME, deviceName), Map.entry(DEVICE_TYPE, deviceType),
                        Map.entry(TS, Long.toString(ts))).iterator();
            }

            @Override
            public int size() {
                return 3;
            }
        };
    }
}
