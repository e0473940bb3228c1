package io.tbactors.rule.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.tbactors.rule.RuleChainFailureException;
import io.tbactors.rule.TbMsgType;
import io.tbactors.rule.example.ReadingStore;
import io.tbactors.rule.example.SaveReadingsNode;
import org.junit.jupiter.api.Test;

class RuleChainTesterTest {

    private static final String CHAIN = """
            {"nodes": [
               {"id": "hot", "type": "filter", "configuration": {"condition": "data.temperature > 30"}},
               {"id": "mark", "type": "transform", "configuration": {"set": {"alert": "true"}}},
               {"id": "save", "type": "save-readings"}],
             "connections": [{"from": "hot", "to": "mark", "relation": "True"},
                             {"from": "mark", "to": "save", "relation": "Success"},
                             {"from": "hot", "to": "save", "relation": "False"}]}
            """;

    @Test
    void aMessageGoesThroughTheChainWithTheSaveReplacedByAProbe() {
        try (RuleChainTester tester = RuleChainTester.forChain(CHAIN, List.of(new SaveReadingsNode(new ReadingStore())))) {
            ProbeNode save = tester.replace("save", "Success");

            RuleChainTester.Run hot = tester.send(TbMsgType.POST_TELEMETRY_REQUEST, Map.of("temperature", 40.0));
            RuleChainTester.Run cold = tester.send(TbMsgType.POST_TELEMETRY_REQUEST, Map.of("temperature", 10.0));

            assertThat(hot.relations("hot")).containsExactly("True");
            assertThat(hot.output("mark")).containsExactly(Map.of("temperature", 40.0, "alert", true));
            assertThat(cold.relations("hot")).containsExactly("False");
            assertThat(cold.relations("mark")).isEmpty();
            assertThat(save.received()).extracting(msg -> msg.data().get("temperature")).containsExactly(40.0, 10.0);
            assertThat(hot.failure()).isEmpty();
            assertThat(tester.nodes()).extracting(node -> node.type()).contains("probe:save");
        }
    }

    @Test
    void aProbeThatFailsShowsAsTheChainsFailureAndAReplacementOfAMissingNodeIsRefused() {
        try (RuleChainTester tester = RuleChainTester.forChain(CHAIN, List.of(new SaveReadingsNode(new ReadingStore())))) {
            tester.replace("save", Set.of("Success"), msg -> List.of("Nowhere"));

            RuleChainTester.Run run = tester.send(TbMsgType.POST_TELEMETRY_REQUEST, Map.of("temperature", 10.0));

            assertThat(run.failure()).get().isInstanceOf(RuleChainFailureException.class);
            assertThat(run.relations("save")).containsExactly("Failure");
            assertThatThrownBy(() -> tester.replace("hot", "True")).hasMessageContaining("before the first send");
        }
        try (RuleChainTester tester = RuleChainTester.forChain(CHAIN, List.of(new SaveReadingsNode(new ReadingStore())))) {
            tester.replace("nope", "Success");
            assertThatThrownBy(() -> tester.send("T", Map.of())).hasMessage("The chain has no node [nope] to replace");
        }
    }
}
