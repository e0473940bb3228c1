package io.tbactors.sample.iot.web;

import io.tbactors.rule.LogSafeText;

/**
 * Text from clients, made safe for a log line or a message: control characters (line breaks, escape sequences of
 * terminals, NUL) are written as escapes, so a device cannot forge log lines or hide what it sent.
 */
public final class LogText {

    private LogText() {
    }

    /**
     * @param text any text, or null
     * @return the text with {@code \n}, {@code \r}, {@code \t} escaped as such and other control characters as
     *         {@code \\uXXXX}; the same instance when there is nothing to escape
     */
    public static String escape(String text) {
        return LogSafeText.escape(text);
    }
}
