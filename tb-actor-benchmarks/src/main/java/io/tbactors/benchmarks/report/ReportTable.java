package io.tbactors.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Renders rows as one Markdown table with aligned columns, readable on a console and pasteable as it is. */
public final class ReportTable {

    private static final String[] HEADER = {"scenario", "unit", "ours", "Pekko", "ratio", "limit", "share of limit", "target", "verdict"};
    private static final String MISSING = "-";

    private ReportTable() {
    }

    /**
     * @param rows the rows, in order
     * @return the table, one line per row after the header and separator, each line ending in a newline
     */
    public static String render(List<Row> rows) {
        List<String[]> cells = new ArrayList<>();
        cells.add(HEADER);
        for (Row row : rows) {
            cells.add(new String[] {
                row.scenario(), row.unit(), number(row.ours()), number(row.pekko()), times(row.ratio()), number(row.limit()),
                fraction(row.shareOfLimit()), row.target().describe(), row.verdict()
            });
        }
        int[] widths = new int[HEADER.length];
        for (String[] line : cells) {
            for (int c = 0; c < line.length; c++) {
                widths[c] = Math.max(widths[c], line[c].length());
            }
        }
        StringBuilder out = new StringBuilder();
        appendLine(out, cells.get(0), widths);
        String[] separator = new String[HEADER.length];
        for (int c = 0; c < separator.length; c++) {
            separator[c] = "-".repeat(Math.max(3, widths[c]));
        }
        appendLine(out, separator, widths);
        for (int i = 1; i < cells.size(); i++) {
            appendLine(out, cells.get(i), widths);
        }
        return out.toString();
    }

    private static void appendLine(StringBuilder out, String[] line, int[] widths) {
        out.append('|');
        for (int c = 0; c < line.length; c++) {
            out.append(' ').append(line[c]).append(" ".repeat(widths[c] - line[c].length())).append(" |");
        }
        out.append('\n');
    }

    /**
     * @param value a figure, or null
     * @return three significant digits or whole numbers for large values; {@code -} for null
     */
    static String number(Double value) {
        if (value == null) {
            return MISSING;
        }
        double magnitude = Math.abs(value);
        String pattern = magnitude >= 100 ? "%.0f" : magnitude >= 10 ? "%.1f" : "%.2f";
        return String.format(Locale.ROOT, pattern, value);
    }

    static String times(Double value) {
        return value == null ? MISSING : String.format(Locale.ROOT, "%.2fx", value);
    }

    static String fraction(Double value) {
        return value == null ? MISSING : String.format(Locale.ROOT, "%.2f", value);
    }
}
