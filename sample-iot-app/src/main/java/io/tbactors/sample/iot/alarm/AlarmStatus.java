package io.tbactors.sample.iot.alarm;

/** Whether an alarm is still raised. */
public enum AlarmStatus {
    /** Raised and not cleared. */
    ACTIVE,
    /** Cleared. */
    CLEARED
}
