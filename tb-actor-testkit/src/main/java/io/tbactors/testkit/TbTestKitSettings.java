package io.tbactors.testkit;

import java.time.Duration;
import java.util.Objects;

/**
 * The testkit's timing: the default timeout of expectations that take none, the default quiet period of
 * {@link TbActorProbe#expectNoMessage()}, and the factor every one of them is dilated by, so a slow machine (a CI
 * runner, a loaded laptop) stretches all waits at once instead of each test guessing. Read from system properties
 * once per call, so a build can set them ({@code -Dtb.test.timefactor=3}):
 *
 * <ul>
 *   <li>{@value #TIME_FACTOR}: a positive number, 1 by default;</li>
 *   <li>{@value #DEFAULT_TIMEOUT}: milliseconds before dilation, 3000 by default;</li>
 *   <li>{@value #NO_MESSAGE}: milliseconds before dilation, 100 by default.</li>
 * </ul>
 */
public final class TbTestKitSettings {

    /** System property: the factor all the testkit's waits are multiplied by. */
    public static final String TIME_FACTOR = "tb.test.timefactor";

    /** System property: the default timeout of an expectation, in milliseconds before dilation. */
    public static final String DEFAULT_TIMEOUT = "tb.test.default-timeout-ms";

    /** System property: how long {@link TbActorProbe#expectNoMessage()} waits, in milliseconds before dilation. */
    public static final String NO_MESSAGE = "tb.test.no-message-ms";

    private TbTestKitSettings() {
    }

    /** @return the time factor, from {@value #TIME_FACTOR} */
    public static double timeFactor() {
        String text = System.getProperty(TIME_FACTOR);
        if (text == null || text.isBlank()) {
            return 1.0;
        }
        double factor;
        try {
            factor = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw invalid(TIME_FACTOR, text, "a positive number such as 1 or 2.5");
        }
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw invalid(TIME_FACTOR, text, "a positive number such as 1 or 2.5");
        }
        return factor;
    }

    /**
     * @param duration a wait as written in a test
     * @return the wait multiplied by the time factor
     */
    public static Duration dilated(Duration duration) {
        Objects.requireNonNull(duration, "duration must not be null");
        return Duration.ofNanos((long) Math.min(Long.MAX_VALUE, duration.toNanos() * timeFactor()));
    }

    /** @return the dilated default timeout of expectations, from {@value #DEFAULT_TIMEOUT} */
    public static Duration defaultTimeout() {
        return dilated(Duration.ofMillis(millis(DEFAULT_TIMEOUT, 3000)));
    }

    /** @return the dilated quiet period of {@link TbActorProbe#expectNoMessage()}, from {@value #NO_MESSAGE} */
    public static Duration noMessageDuration() {
        return dilated(Duration.ofMillis(millis(NO_MESSAGE, 100)));
    }

    private static long millis(String property, long defaultValue) {
        String text = System.getProperty(property);
        if (text == null || text.isBlank()) {
            return defaultValue;
        }
        try {
            long value = Long.parseLong(text.trim());
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(property, text, "a whole number of milliseconds, 0 or more");
    }

    private static IllegalArgumentException invalid(String property, String value, String allowed) {
        return new IllegalArgumentException("System property " + property + "='" + value + "' is invalid: expected " + allowed);
    }
}
