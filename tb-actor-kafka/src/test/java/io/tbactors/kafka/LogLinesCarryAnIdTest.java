package io.tbactors.kafka;

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
 * The module's log lines start with the id they are about, as the core's start with the actor's: {@code [node-1]},
 * {@code [topic-3]} or {@code [DEVICE|uuid]}, so that an operator can grep one node, partition or entity.
 */
class LogLinesCarryAnIdTest {

    private static final Pattern LOG_CALL = Pattern.compile("log\\.(trace|debug|info|warn|error)\\(\\s*\"([^\"]{0,12})");

    @Test
    void everyLogLineOfTheModuleStartsWithTheIdItIsAbout() throws IOException {
        List<String> calls = new ArrayList<>();
        List<String> withoutId = new ArrayList<>();
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            for (Path source : sources.filter(path -> path.toString().endsWith(".java")).toList()) {
                Matcher call = LOG_CALL.matcher(Files.readString(source));
                while (call.find()) {
                    calls.add(source.getFileName() + ": " + call.group(2));
                    if (!call.group(2).startsWith("[{}")) {
                        withoutId.add(source.getFileName() + ": " + call.group(2));
                    }
                }
            }
        }
        assertThat(calls).as("the scan finds the module's log lines").hasSizeGreaterThan(40);
        assertThat(withoutId).isEmpty();
    }
}
