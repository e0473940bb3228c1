package io.tbactors.sample.iot.alarm;

/** How bad an alarm is (ThingsBoard's levels). */
public enum AlarmSeverity {
    /** Act now. */
    CRITICAL,
    /** Act soon. */
    MAJOR,
    /** Act when convenient. */
    MINOR,
    /** Watch. */
    WARNING,
    /** Not known. */
    INDETERMINATE
}
