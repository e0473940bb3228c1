package io.tbactors.rule.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The README's Java examples are these files, word for word, so what the README shows is what the build runs. */
class ReadmeExamplesTest {

    private static final Path EXAMPLES = Path.of("src/test/java/io/tbactors/rule/example");

    @Test
    void everyJavaBlockOfTheReadmeIsAnExampleFileAndEveryExampleIsShown() throws IOException {
        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        List<String> blocks = new ArrayList<>();
        Matcher block = Pattern.compile("```java\n(.*?)```\n", Pattern.DOTALL).matcher(readme);
        while (block.find()) {
            blocks.add(block.group(1));
        }
        List<String> files = new ArrayList<>();
        try (Stream<Path> paths = Files.list(EXAMPLES)) {
            for (Path path : paths.filter(p -> !p.getFileName().toString().equals("ReadmeExamplesTest.java")).sorted().toList()) {
                files.add(Files.readString(path, StandardCharsets.UTF_8));
            }
        }

        assertThat(blocks).isNotEmpty().containsExactlyInAnyOrderElementsOf(files);
        assertThat(readme).contains(Files.readString(Path.of("src/test/resources/rule-chains/readings.json"), StandardCharsets.UTF_8));
    }
}
