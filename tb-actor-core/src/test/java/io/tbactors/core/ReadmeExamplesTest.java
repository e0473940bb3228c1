package io.tbactors.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java example in the project's READMEs lives in a source file that its module's build compiles, and the README
 * shows it as it is there. A Java block is preceded by {@code <!-- example: path/to/Source.java -->} (the file from its
 * first {@code import} line to its end) or {@code <!-- example: path/to/Source.java#name -->} (the lines between
 * {@code // example: name} and {@code // end example}, with their common indentation removed); paths are from the
 * repository's root. A block of another language with such a line above it (a chain file, say) must be that whole
 * file. This test reads the READMEs of every module, so a README edited anywhere is checked here.
 */
class ReadmeExamplesTest {

    private static final Pattern MARKER = Pattern.compile("<!-- example: ([^#\\s]+)(?:#(\\S+))? -->");

    @Test
    void everyJavaExampleInAReadmeIsTheSourceTheBuildCompiles() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        assertThat(root.resolve("pom.xml")).as("the repository root, above the module").exists();
        List<Path> readmes = new ArrayList<>();
        readmes.add(root.resolve("README.md"));
        try (Stream<Path> modules = Files.list(root)) {
            modules.map(module -> module.resolve("README.md")).filter(Files::isRegularFile).sorted().forEach(readmes::add);
        }
        List<String> problems = new ArrayList<>();
        int examples = 0;
        for (Path readme : readmes) {
            examples += check(root, readme, problems);
        }
        assertThat(problems).as("README examples out of step with their sources").isEmpty();
        assertThat(examples).as("Java examples found in the READMEs").isPositive();
    }

    private static int check(Path root, Path readme, List<String> problems) throws IOException {
        List<String> lines = Files.readAllLines(readme);
        String name = root.relativize(readme).toString();
        int examples = 0;
        for (int i = 0; i < lines.size(); i++) {
            String fence = lines.get(i).trim();
            if (!fence.startsWith("```") || fence.length() == 3) {
                continue;
            }
            boolean java = fence.equals("```java");
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).trim().equals("```")) {
                end++;
            }
            List<String> block = lines.subList(i + 1, Math.min(end, lines.size()));
            Matcher marker = i > 0 ? MARKER.matcher(lines.get(i - 1).trim()) : MARKER.matcher("");
            if (!java && !marker.matches()) {
                i = end;
                continue;
            }
            examples++;
            if (!marker.matches()) {
                problems.add(name + ":" + (i + 1) + ": a Java example without <!-- example: path[#name] --> on the line "
                        + "above; every example must live in a source file the build compiles");
            } else {
                Path source = root.resolve(marker.group(1));
                if (!Files.isRegularFile(source)) {
                    problems.add(name + ":" + (i + 1) + ": the example's source " + marker.group(1) + " does not exist");
                } else {
                    List<String> content = Files.readAllLines(source);
                    List<String> expected = java || marker.group(2) != null ? extract(content, marker.group(2))
                            : new ArrayList<>(content);
                    String difference = firstDifference(expected, block);
                    if (expected.isEmpty()) {
                        problems.add(name + ":" + (i + 1) + ": no example '" + marker.group(2) + "' in " + marker.group(1)
                                + " (// example: " + marker.group(2) + " ... // end example)");
                    } else if (difference != null) {
                        problems.add(name + ":" + (i + 1) + ": differs from " + marker.group(1)
                                + (marker.group(2) == null ? "" : "#" + marker.group(2)) + ": " + difference);
                    }
                }
            }
            i = end;
        }
        return examples;
    }

    /** @return the whole file from its first import, or the named region without its common indentation */
    static List<String> extract(List<String> source, String region) {
        List<String> taken = new ArrayList<>();
        if (region == null) {
            boolean started = false;
            for (String line : source) {
                started |= line.startsWith("import ");
                if (started) {
                    taken.add(line);
                }
            }
        } else {
            boolean inside = false;
            for (String line : source) {
                String trimmed = line.trim();
                if (trimmed.equals("// example: " + region)) {
                    inside = true;
                } else if (inside && trimmed.equals("// end example")) {
                    break;
                } else if (inside) {
                    taken.add(line);
                }
            }
            int indent = taken.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
                    .min().orElse(0);
            taken.replaceAll(l -> l.isBlank() ? "" : l.substring(indent));
        }
        while (!taken.isEmpty() && taken.get(taken.size() - 1).isBlank()) {
            taken.remove(taken.size() - 1);
        }
        return taken;
    }

    private static String firstDifference(List<String> expected, List<String> shown) {
        for (int i = 0; i < Math.max(expected.size(), shown.size()); i++) {
            String want = i < expected.size() ? expected.get(i).stripTrailing() : "<end>";
            String got = i < shown.size() ? shown.get(i).stripTrailing() : "<end>";
            if (!want.equals(got)) {
                return "line " + (i + 1) + " of the example is '" + got + "', the source has '" + want + "'";
            }
        }
        return null;
    }
}
