package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class RuleChainEndToEndTest extends EndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private String rootChainId;
    private JsonNode original;

    @BeforeEach
    void findRootChain() {
        JsonNode chains = api.get("/api/rule-chains").json();
        JsonNode root = chains.valueStream().filter(c -> c.get("root").booleanValue()).findFirst().orElseThrow();
        rootChainId = root.get("id").stringValue();
        original = api.get("/api/rule-chains/" + rootChainId).json();
    }

    @AfterEach
    void restoreRootChain() {
        assertThat(api.put("/api/rule-chains/" + rootChainId, original.toString()).status()).isEqualTo(200);
    }

    @Test
    void theDefaultRootChainShipsWithTheApp() {
        assertThat(original.get("name").stringValue()).isEqualTo("Root Rule Chain");
        assertThat(original.get("nodes").valueStream().map(n -> n.get("type").stringValue()))
                .contains("message-type-switch", "save-timeseries", "save-attributes", "create-alarm", "clear-alarm", "log");
    }

    @Test
    void anUpdatedChainChangesBehaviourWithoutARestart() {
        ApiClient.Device device = newDevice();
        api.postAsDevice(device.token(), "telemetry", "{\"ts\": 1000, \"values\": {\"temperature\": 20}}");
        await().atMost(WAIT).until(() -> api.get(TelemetryEndToEndTest.latestPath(device)).json(), json -> json.has("temperature"));
        assertThat(api.get(TelemetryEndToEndTest.latestPath(device)).json().has("temperatureF")).isFalse();

        ApiClient.Response updated = api.put("/api/rule-chains/" + rootChainId, withFahrenheitTransform(original).toString());

        assertThat(updated.status()).isEqualTo(200);
        assertThat(updated.json().get("version").longValue()).isEqualTo(original.get("version").longValue() + 1);
        api.postAsDevice(device.token(), "telemetry", "{\"ts\": 2000, \"values\": {\"temperature\": 100}}");
        JsonNode latest = await().atMost(WAIT).until(() -> api.get(TelemetryEndToEndTest.latestPath(device)).json(),
                json -> json.has("temperatureF"));
        assertThat(latest.get("temperatureF").get("value").doubleValue()).isEqualTo(212.0);
        assertThat(latest.get("temperatureF").get("ts").longValue()).isEqualTo(2000);
    }

    @Test
    void anInvalidChainIsRejectedWithMessagesThatSayWhereAndTheStoredChainStays() {
        ObjectNode chain = (ObjectNode) original.deepCopy();
        ObjectNode alarmNode = alarmNode(chain);
        ((ObjectNode) alarmNode.get("configuration")).put("condition", "data.temperature >");
        ((ObjectNode) chain.get("nodes").get(0)).put("type", "no-such-type");
        ((ArrayNode) chain.get("connections")).addObject().put("from", "message-type").put("to", "nowhere").put("relation", "Success");

        ApiClient.Response response = api.put("/api/rule-chains/" + rootChainId, chain.toString());

        assertThat(response.status()).isEqualTo(400);
        JsonNode errors = response.json().get("errors");
        int alarmIndex = indexOf(chain, alarmNode.get("id").stringValue());
        int lastConnection = chain.get("connections").size() - 1;
        assertThat(errors.valueStream().map(JsonNode::stringValue)).anySatisfy(e -> assertThat(e)
                        .startsWith("nodes[" + alarmIndex + "].configuration.condition: cannot parse SpEL expression"))
                .anySatisfy(e -> assertThat(e).startsWith("nodes[0].type: unknown node type 'no-such-type'"))
                .anySatisfy(e -> assertThat(e).isEqualTo("connections[" + lastConnection + "].to: no node has id 'nowhere'"));
        assertThat(response.json().get("detail").stringValue()).startsWith("Invalid rule chain: ");
        assertThat(api.get("/api/rule-chains/" + rootChainId).json().get("version")).isEqualTo(original.get("version"));
    }

    @Test
    void aChainWithACycleOrNoNodesIsRejected() {
        ObjectNode cyclic = (ObjectNode) original.deepCopy();
        ((ArrayNode) cyclic.get("connections")).addObject().put("from", "log-failure").put("to", "message-type")
                .put("relation", "Success");
        ObjectNode empty = JsonNodeFactory.instance.objectNode().put("name", "empty");

        ApiClient.Response cycle = api.put("/api/rule-chains/" + rootChainId, cyclic.toString());
        ApiClient.Response noNodes = api.put("/api/rule-chains/" + rootChainId, empty.toString());
        ApiClient.Response malformed = api.put("/api/rule-chains/" + rootChainId, "{\"nodes\": [");

        assertThat(cycle.status()).isEqualTo(400);
        assertThat(cycle.json().get("detail").stringValue()).contains("cycle").contains("log-failure -> message-type");
        assertThat(noNodes.status()).isEqualTo(400);
        assertThat(noNodes.json().get("detail").stringValue()).contains("nodes: required");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.json().get("detail").stringValue()).startsWith("Malformed JSON at line 1");
    }

    @Test
    void aChainWhoseExpressionReachesForATypeIsRejectedAtPutNamingTheNodeAndTheReason() {
        ObjectNode chain = (ObjectNode) original.deepCopy();
        ObjectNode alarmNode = alarmNode(chain);
        ((ObjectNode) alarmNode.get("configuration")).put("condition", "T(java.lang.System).exit(1) == null");

        ApiClient.Response response = api.put("/api/rule-chains/" + rootChainId, chain.toString());

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("errors").get(0).stringValue())
                .startsWith("nodes[" + indexOf(chain, alarmNode.get("id").stringValue()) + "].configuration.condition: ")
                .contains("a type reference T(java.lang.System)", "not allowed");
    }

    @Test
    void aChainLargerThanTheLimitGets413NamingTheProperty() {
        ObjectNode chain = (ObjectNode) original.deepCopy();
        chain.put("name", "x".repeat(300 * 1024));

        ApiClient.Response response = api.put("/api/rule-chains/" + rootChainId, chain.toString());

        assertThat(response.status()).isEqualTo(413);
        assertThat(response.json().get("detail").stringValue()).contains("256 KB", "sample.rule-engine.max-chain-size");
    }

    @Test
    void anExpressionCannotChangeTheMessageItReads() {
        ObjectNode chain = JsonNodeFactory.instance.objectNode();
        ArrayNode nodes = chain.putArray("nodes");
        ObjectNode mutate = nodes.addObject().put("id", "mutate").put("type", "transform");
        mutate.putObject("configuration").putObject("set").put("previous", "data.loc.put('lat', 0)");
        nodes.addObject().put("id", "save").put("type", "save-timeseries");
        ArrayNode connections = chain.putArray("connections");
        connections.addObject().put("from", "mutate").put("to", "save").put("relation", "Success");
        connections.addObject().put("from", "mutate").put("to", "save").put("relation", "Failure");
        assertThat(api.put("/api/rule-chains/" + rootChainId, chain.toString()).status()).isEqualTo(200);
        ApiClient.Device device = newDevice();

        ApiClient.Response posted = api.postAsDevice(device.token(), "telemetry", "{\"loc\": {\"lat\": 5}}");

        assertThat(posted.status()).isEqualTo(200);
        JsonNode latest = api.get(TelemetryEndToEndTest.latestPath(device)).json();
        assertThat(latest.has("previous")).as("the put failed, so the transform did not set its key").isFalse();
        assertThat(latest.get("loc").get("value").get("lat").intValue()).isEqualTo(5);
    }

    @Test
    void anUnknownChainIsNotFound() {
        assertThat(api.get("/api/rule-chains/" + UUID.randomUUID()).status()).isEqualTo(404);
        assertThat(api.put("/api/rule-chains/" + UUID.randomUUID(), original.toString()).status()).isEqualTo(404);
    }

    private static ObjectNode alarmNode(JsonNode chain) {
        return (ObjectNode) chain.get("nodes").valueStream()
                .filter(n -> n.get("type").stringValue().equals("create-alarm")).findFirst().orElseThrow();
    }

    private static int indexOf(JsonNode chain, String nodeId) {
        for (int i = 0; i < chain.get("nodes").size(); i++) {
            if (chain.get("nodes").get(i).get("id").stringValue().equals(nodeId)) {
                return i;
            }
        }
        throw new IllegalArgumentException(nodeId);
    }

    /** Inserts a transform that adds temperatureF between the message-type switch and the telemetry save. */
    private static ObjectNode withFahrenheitTransform(JsonNode chain) {
        ObjectNode copy = (ObjectNode) chain.deepCopy();
        ObjectNode transform = ((ArrayNode) copy.get("nodes")).addObject();
        transform.put("id", "to-fahrenheit").put("type", "transform").put("name", "Add Fahrenheit");
        transform.putObject("configuration").putObject("set").put("temperatureF", "data.temperature * 9.0 / 5 + 32");
        for (JsonNode connection : copy.get("connections")) {
            if (connection.get("relation").stringValue().equals("Post telemetry")) {
                ((ObjectNode) connection).put("to", "to-fahrenheit");
            }
        }
        ((ArrayNode) copy.get("connections")).addObject().put("from", "to-fahrenheit").put("to", "save-telemetry")
                .put("relation", "Success");
        return copy;
    }
}
