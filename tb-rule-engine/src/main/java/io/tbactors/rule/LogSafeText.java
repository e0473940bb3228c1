package io.tbactors.rule;

/**
 * Text from devices or clients, made safe for a log line or a message: control characters (line breaks, escape sequences of
 * terminals, NUL) are written as escapes, so a device cannot forge log lines or hide what it sent.
 */
public final class LogSafeText {

    private LogSafeText() {
    }

    /**
     * @param text any text, or null
     * @return the text with {@code \n}, {@code \r}, {@code \t} escaped as such and other control characters as
     *         {@code \\uXXXX}; the same instance when there is nothing to escape
     */
    public static String escape(String text) {
        if (text == null) {
            return null;
        }
        int first = 0;
        while (first < text.length() && !Character.isISOControl(text.charAt(first))) {
            first++;
        }
        if (first == text.length()) {
            return text;
        }
        StringBuilder escaped = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\t' -> escaped.append("\\t");
                default -> {
                    if (Character.isISOControl(c)) {
                        escaped.append(String.format("\\u%04x", (int) c));
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }
}
