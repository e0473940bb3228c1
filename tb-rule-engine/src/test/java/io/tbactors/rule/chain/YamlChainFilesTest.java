package io.tbactors.rule.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tbactors.rule.RuleTestSupport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class YamlChainFilesTest {

    private static final String JSON = """
            {"name": "Readings", "nodes": [
              {"id": "hot", "type": "filter", "configuration": {"condition": "data.temperature > 30"}},
              {"id": "mark", "type": "transform", "configuration": {"set": {"alarm": "true", "level": "2"}}},
              {"id": "log", "type": "log"}],
             "connections": [
              {"from": "hot", "to": "mark", "relation": "True"},
              {"from": "hot", "to": "log", "relation": "False"},
              {"from": "mark", "to": "log", "relation": "Success"}]}
            """;

    private static final String YAML = """
            name: Readings
            nodes:
              - id: hot
                type: filter
                configuration:
                  condition: data.temperature > 30
              - id: mark
                type: transform
                configuration:
                  set: {alarm: "true", level: "2"}
              - {id: log, type: log}
            connections:
              - {from: hot, to: mark, relation: True}     # ThingsBoard's relation names stay strings, unquoted too
              - {from: hot, to: log, relation: False}
              - {from: mark, to: log, relation: Success}
            """;

    @TempDir
    Path dir;

    private final RuleChainValidator validator = new RuleChainValidator(RuleTestSupport.REGISTRY);

    private ResourceRuleChainSource source(String file, String text) throws Exception {
        Path path = dir.resolve(file);
        Files.writeString(path, text, StandardCharsets.UTF_8);
        return new ResourceRuleChainSource(validator, RuleTestSupport.JSON, null, List.of("file:" + path));
    }

    @Test
    void aYamlChainIsTheSameChainAsItsJsonTwin() throws Exception {
        RuleChainDefinition fromJson = source("readings.json", JSON).findAll().get(0).definition();
        RuleChainDefinition fromYaml = source("readings.yaml", YAML).findAll().get(0).definition();

        assertThat(fromYaml).isEqualTo(fromJson);
        assertThat(fromYaml.connections()).extracting(RuleConnection::relation).containsExactly("True", "False", "Success");
    }

    @Test
    void aYmlFileIsYamlTooAndItsNameIsTheFileNameWithoutExtension() throws Exception {
        ResourceRuleChainSource source = source("cold-room.yml", YAML.replace("name: Readings\n", ""));

        assertThat(source.findAll()).singleElement().satisfies(chain -> assertThat(chain.definition().name()).isEqualTo("cold-room"));
        assertThat(source.idOf("cold-room")).isNotNull();
    }

    @Test
    void validationErrorsOfAYamlChainCarryTheSameLocationsAsJsons() throws Exception {
        Path node = dir.resolve("bad-node.yaml");
        Path relation = dir.resolve("bad-relation.yaml");

        assertThatThrownBy(() -> source("bad-node.yaml", YAML.replace("condition: data.temperature > 30", "conditon: x")))
                .isInstanceOf(RuleChainValidationException.class)
                .hasMessageContaining("file:" + node + ": nodes[0].configuration.condition: is required")
                .hasMessageContaining("file:" + node + ": nodes[0].configuration.conditon: unknown field; the fields are [condition]");
        assertThatThrownBy(() -> source("bad-relation.yaml", YAML.replace("relation: False", "relation: Flase")))
                .isInstanceOf(RuleChainValidationException.class)
                .hasMessageContaining("file:" + relation + ": connections[1].relation: node 'hot' (filter) never leaves on 'Flase'");
    }

    @Test
    void aFileThatIsNotYamlIsRefusedWithTheLineAndColumn() throws Exception {
        Path path = dir.resolve("broken.yaml");

        assertThatThrownBy(() -> source("broken.yaml", "name: x\nnodes:\n  - id: a\n   type: log\n"))
                .isInstanceOf(RuleChainValidationException.class)
                .hasMessageContaining("file:" + path + ": not YAML: ")
                .hasMessageContaining("(line 4, column");
    }

    @Test
    void aKeyGivenTwiceIsRefusedRatherThanOneValueSilentlyWinning() throws Exception {
        assertThatThrownBy(() -> source("twice.yaml", "name: a\nname: b\nnodes: [{id: l, type: log}]\n"))
                .isInstanceOf(RuleChainValidationException.class).hasMessageContaining("not YAML: ")
                .hasMessageContaining("duplicate key name");
    }
}
