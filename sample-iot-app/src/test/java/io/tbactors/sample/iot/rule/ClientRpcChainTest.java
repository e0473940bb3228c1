package io.tbactors.sample.iot.rule;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgType;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.testing.ProbeNode;
import io.tbactors.rule.testing.RuleChainTester;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ClassPathResource;

/**
 * Client-side RPC through a chain: the shipped root chain answers {@code getCurrentTime} (and every other method with
 * an error naming it), and the README's example chain ({@code rule-chains/client-side-rpc.json}) answers as it says;
 * the {@code rpc-call-reply} node is a probe here, so the test sees the answer it would send.
 */
class ClientRpcChainTest {

    private static final Map<String, String> REQUEST = Map.of("requestId", "7", "sessionId",
            "00000000-0000-0000-0000-000000000001", "deviceName", "boiler-1", "deviceType", "thermostat");

    @Test
    void theRootChainAnswersGetCurrentTimeWithTheTimeAndAnyOtherMethodWithAnError() throws IOException {
        String chain = resource(RootRuleChainBootstrap.ROOT_CHAIN_RESOURCE).replace("{{temperatureThreshold}}", "30");
        try (RuleChainTester tester = RuleChainTester.forChain(chain, nodeTypes())) {
            ProbeNode reply = tester.replace("rpc-reply", "Success");
            long before = System.currentTimeMillis();

            tester.send(TbMsgType.TO_SERVER_RPC_REQUEST, Map.of("method", "getCurrentTime", "params", Map.of()), REQUEST);
            tester.send(TbMsgType.TO_SERVER_RPC_REQUEST, Map.of("method", "launch", "params", Map.of()), REQUEST);

            List<TbMsg> answers = reply.received();
            assertThat(answers).hasSize(2);
            assertThat(answers.get(0).data()).containsOnlyKeys("time");
            assertThat((Long) answers.get(0).data().get("time")).isGreaterThanOrEqualTo(before);
            assertThat(answers.get(1).data()).containsOnlyKeys("error");
            assertThat((String) answers.get(1).data().get("error")).contains("No handler for method 'launch'", "getCurrentTime");
            assertThat(answers).allSatisfy(answer -> assertThat(answer.metadata()).containsAllEntriesOf(REQUEST));
        }
    }

    @Test
    void theReadmesExampleChainAnswersAsItSays() throws IOException {
        try (RuleChainTester tester = RuleChainTester.forChain(resource("rule-chains/client-side-rpc.json"), nodeTypes())) {
            ProbeNode reply = tester.replace("reply", "Success");

            tester.send(TbMsgType.TO_SERVER_RPC_REQUEST, Map.of("method", "getCurrentTime", "params", Map.of()), REQUEST);
            tester.send(TbMsgType.TO_SERVER_RPC_REQUEST, Map.of("method", "whoAmI", "params", Map.of()), REQUEST);
            tester.send(TbMsgType.POST_TELEMETRY_REQUEST, Map.of("temperature", 20.0), REQUEST);

            List<TbMsg> answers = reply.received();
            assertThat(answers).hasSize(2);
            assertThat(answers.get(0).data()).containsOnlyKeys("time");
            assertThat(answers.get(1).data()).containsExactlyInAnyOrderEntriesOf(Map.of("device", "boiler-1",
                    "asked", "whoAmI"));
        }
    }

    private static List<TbNode<?>> nodeTypes() {
        return RuleTestSupport.mocks().nodes();
    }

    private static String resource(String path) throws IOException {
        try (InputStream in = new ClassPathResource(path).getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
