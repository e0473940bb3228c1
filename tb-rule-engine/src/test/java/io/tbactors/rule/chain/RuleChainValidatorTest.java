package io.tbactors.rule.chain;

import static io.tbactors.rule.RuleTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tbactors.rule.RuleTestSupport;
import io.tbactors.rule.example.ReadingStore;
import io.tbactors.rule.example.SaveReadingsNode;
import io.tbactors.rule.node.RuleNodeRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class RuleChainValidatorTest {

    private final RuleChainValidator validator = new RuleChainValidator(RuleTestSupport.REGISTRY);

    @Test
    void theFirstNodeDefaultsToTheFirstInTheListAndTheNameToTheGivenDefault() {
        RuleChainDefinition chain = validator.parse(json("{'nodes': [{'id': 'a', 'type': 'log'}, {'id': 'b', 'type': 'log'}]}"),
                "Fallback");

        assertThat(chain.firstNodeId()).isEqualTo("a");
        assertThat(chain.name()).isEqualTo("Fallback");
        assertThat(chain.nodes().get(0).name()).as("a node's name defaults to its id").isEqualTo("a");
        assertThat(chain.connections()).isEmpty();
    }

    @Test
    void aNodesDebugModeIsReadAndMustBeABoolean() {
        RuleChainDefinition chain = validator.parse(json("{'nodes': [{'id': 'a', 'type': 'log', 'debugMode': true}, "
                + "{'id': 'b', 'type': 'log'}]}"), "Chain");
        assertThat(chain.nodes()).extracting(RuleNodeDefinition::debugMode).containsExactly(true, false);

        assertThatThrownBy(() -> validator.parse(json("{'nodes': [{'id': 'a', 'type': 'log', 'debugMode': 'yes'}]}"), "Chain"))
                .isInstanceOf(RuleChainValidationException.class).hasMessageContaining("nodes[0].debugMode: must be true or false");
    }

    @Test
    void expressionsThatReachForTypesConstructorsVariablesOrAssignmentsAreRefusedNamingTheNodeAndTheReason() {
        RuleChainValidationException e = catchThrowableOfType(RuleChainValidationException.class, () -> validator.parse(json("""
                {'nodes': [
                   {'id': 'a', 'type': 'filter', 'configuration': {'condition': 'T(java.lang.Runtime).getRuntime() != null'}},
                   {'id': 'b', 'type': 'transform', 'configuration': {'set': {'x': 'new java.util.ArrayList().size()'}}},
                   {'id': 'c', 'type': 'log', 'configuration': {'message': '#systemProperties'}},
                   {'id': 'd', 'type': 'filter', 'configuration': {'condition': '(data.t = 5) > 1'}},
                   {'id': 'e', 'type': 'filter', 'configuration': {'condition': '@bean != null'}},
                   {'id': 'ok', 'type': 'filter', 'configuration': {'condition': 'data.name?.isEmpty() == false && #root != null'}}
                 ]}
                """), "x"));

        assertThat(e.getErrors()).hasSize(5);
        assertThat(e.getErrors().get(0)).startsWith("nodes[0].configuration.condition: SpEL expression")
                .contains("uses a type reference T(java.lang.Runtime)", "not allowed");
        assertThat(e.getErrors().get(1)).startsWith("nodes[1].configuration.set.x: ").contains("a constructor call");
        assertThat(e.getErrors().get(2)).startsWith("nodes[2].configuration.message: ").contains("a variable #systemProperties");
        assertThat(e.getErrors().get(3)).startsWith("nodes[3].configuration.condition: ").contains("an assignment");
        assertThat(e.getErrors().get(4)).startsWith("nodes[4].configuration.condition: ").contains("a bean reference");
    }

    @Test
    void everyErrorIsReportedWithItsLocation() {
        RuleChainValidationException e = catchThrowableOfType(RuleChainValidationException.class, () -> validator.parse(json("""
                {'firstNodeId': 'zz',
                 'nodes': [
                   {'id': 'f', 'type': 'filter', 'configuration': {'condition': 'data.x >'}},
                   {'id': 'f', 'type': 'threshold',
                    'configuration': {'level': 'APOCALYPTIC', 'condition': 'true', 'limit': 'x', 'colour': 1}},
                   {'id': 't', 'type': 'transform', 'configuration': {}},
                   {'id': 'u', 'type': 'teleport'},
                   {'type': 'log'},
                   {'id': 'c', 'type': 'log', 'configuration': 5}
                 ],
                 'connections': [{'from': 'f', 'to': 'nowhere', 'relation': 'True'}, {'from': 'f', 'to': 't'}]}
                """), "x"));

        assertThat(e.getErrors()).containsExactlyInAnyOrder(
                "nodes[0].configuration.condition: cannot parse SpEL expression 'data.x >': " + spelError(e),
                "nodes[1].id: 'f' is already the id of nodes[0]",
                "nodes[1].configuration.name: is required",
                "nodes[1].configuration.level: 'APOCALYPTIC' is not one of [LOW, HIGH]",
                "nodes[1].configuration.limit: must be a Double (" + limitError(e) + ")",
                "nodes[1].configuration.colour: unknown field; the fields are [condition, level, limit, name]",
                "nodes[2].configuration.set: a transform needs at least one of 'set', 'rename' or 'remove'",
                "nodes[3].type: unknown node type 'teleport'; known types: "
                        + "[filter, log, message-type-switch, switch, threshold, transform]",
                "nodes[4].id: is required",
                "nodes[5].configuration: must be a JSON object",
                "connections[0].to: no node has id 'nowhere'",
                "connections[1].relation: is required",
                "firstNodeId: no node has id 'zz'");
        assertThat(e.getMessage()).startsWith("Invalid rule chain: nodes[0].configuration.condition");
    }

    @Test
    void theReadmesNodeReportsAFieldOfTheWrongShapeAndAnUnknownFieldAsTheReadmeSays() {
        RuleChainValidator withExample = new RuleChainValidator(RuleNodeRegistry.withBuiltIns(
                List.of(new SaveReadingsNode(new ReadingStore())), RuleTestSupport.JSON));

        RuleChainValidationException e = catchThrowableOfType(RuleChainValidationException.class, () -> withExample.parse(json("""
                {'nodes': [{'id': 'f', 'type': 'filter', 'configuration': {'condition': 'true'}},
                           {'id': 's', 'type': 'save-readings', 'configuration': {'keys': 'temperature'}},
                           {'id': 't', 'type': 'save-readings', 'configuration': {'key': ['temperature']}},
                           {'id': 'u', 'type': 'save-readings', 'configuration': {'keys': [' ']}}],
                 'connections': [{'from': 'f', 'to': 's', 'relation': 'Ture'}]}
                """), "x"));

        assertThat(e.getErrors()).containsExactlyInAnyOrder(
                "nodes[1].configuration.keys: must be an array",
                "nodes[2].configuration.key: unknown field; the fields are [keys]",
                "nodes[3].configuration.keys[0]: must be a non-blank string",
                "connections[0].relation: node 'f' (filter) never leaves on 'Ture'; it leaves on [Failure, False, True]");
    }

    @Test
    void aCycleIsRejectedAndNamed() {
        RuleChainValidationException e = catchThrowableOfType(RuleChainValidationException.class, () -> validator.parse(json("""
                {'nodes': [{'id': 'a', 'type': 'log'}, {'id': 'b', 'type': 'log'}, {'id': 'c', 'type': 'log'}],
                 'connections': [{'from': 'a', 'to': 'b', 'relation': 'Success'}, {'from': 'b', 'to': 'c', 'relation': 'Success'},
                                 {'from': 'c', 'to': 'b', 'relation': 'Failure'}]}
                """), "x"));

        assertThat(e.getErrors()).containsExactly("connections: they form a cycle b -> c -> b; a message would loop forever");
    }

    @Test
    void aChainThatIsNotAnObjectOrHasNoNodesIsRejected() {
        assertThat(catchThrowableOfType(RuleChainValidationException.class, () -> validator.parse(json("[]"), "x")).getErrors())
                .singleElement().asString().startsWith("(root): a rule chain must be a JSON object");
        assertThat(catchThrowableOfType(RuleChainValidationException.class, () -> validator.parse(json("{'nodes': []}"), "x"))
                .getErrors()).containsExactly("nodes: required, a non-empty array of nodes");
        assertThat(catchThrowableOfType(RuleChainValidationException.class,
                () -> validator.parse(json("{'name': '', 'nodes': [{'id': 'a', 'type': 'log'}], 'connections': {}}"), "x"))
                .getErrors()).containsExactly("name: must be a non-blank string", "connections: must be an array of {from, to, relation}");
    }

    private static String limitError(RuleChainValidationException e) {
        String limit = e.getErrors().stream().filter(error -> error.startsWith("nodes[1].configuration.limit")).findFirst().orElseThrow();
        return limit.substring(limit.indexOf('(') + 1, limit.length() - 1);
    }

    private static String spelError(RuleChainValidationException e) {
        String first = e.getErrors().get(0);
        return first.substring(first.indexOf("'data.x >': ") + "'data.x >': ".length());
    }
}
