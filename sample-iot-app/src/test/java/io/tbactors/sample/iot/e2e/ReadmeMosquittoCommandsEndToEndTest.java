package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Value;

/**
 * The README's commands to devices ("Commands to devices", the block after "Over MQTT"), run as they are written with
 * Debian's mosquitto-clients and curl against the app: only the ports and the variables the README leaves to the reader
 * ({@code $TOKEN}, {@code $ID}, {@code $PASS}) are filled in, and the subscription the README leaves running gets a
 * count and a time limit. {@code .ci/run} installs mosquitto-clients; on a machine without them the test is skipped,
 * saying so.
 */
class ReadmeMosquittoCommandsEndToEndTest extends EndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Value("${local.mqtt.port}")
    int mqttPort;

    @TempDir
    Path dir;

    @Test
    void theReadmesMqttCommandsDoWhatTheReadmeSays() throws Exception {
        assumeTrue(onPath("mosquitto_sub") && onPath("mosquitto_pub") && onPath("mosquitto_rr") && onPath("curl"),
                "mosquitto-clients (2.0 or later) and curl are not installed: apt-get install mosquitto-clients curl");
        List<String> commands = readmeMqttBlock();
        ApiClient.Device device = newDevice();

        // the device takes the next RPC request; the server side's two-way call waits for its answer
        Process requests = start(command(commands, "mosquitto_sub", "rpc/request/+") + " -W 20", device, "requests");
        Process call = start(command(commands, "curl", "/api/rpc/twoway/"), device, "call");
        assertThat(requests.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("mosquitto_sub took one request").isTrue();
        assertThat(output("requests")).isEqualTo("v1/devices/me/rpc/request/1 {\"method\":\"setMode\",\"params\":{\"mode\":\"eco\"}}");
        Process answer = start(command(commands, "mosquitto_pub", "rpc/response/1"), device, "answer");
        assertThat(answer.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(answer.exitValue()).as(output("answer")).isZero();
        assertThat(call.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(output("call")).isEqualTo("{\"mode\":\"eco\"}");

        // shared attributes: pushed while subscribed (set again until the subscription is in place)
        Process updates = start(command(commands, "mosquitto_sub", "-t v1/devices/me/attributes ") + " -C 1 -W 20", device,
                "updates");
        String set = command(commands, "curl", "/attributes/SHARED_SCOPE");
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
            start(set, device, "set").waitFor(WAIT.toSeconds(), TimeUnit.SECONDS);
            return !updates.isAlive();
        });
        assertThat(output("updates")).isEqualTo("v1/devices/me/attributes {\"targetTemperature\":22.5}");

        // an attribute request and a client-side RPC, each answered on its response topic
        Process attributes = start(command(commands, "mosquitto_rr", "attributes/request/1") + " -W 20", device, "attributes");
        assertThat(attributes.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(output("attributes")).isEqualTo("{\"client\":{},\"shared\":{\"targetTemperature\":22.5}}");
        long before = System.currentTimeMillis();
        Process time = start(command(commands, "mosquitto_rr", "rpc/request/7") + " -W 20", device, "time");
        assertThat(time.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(output("time")).startsWith("{\"time\":");
        assertThat(Long.parseLong(output("time").replaceAll("\\D", ""))).isGreaterThanOrEqualTo(before);
    }

    /** @return the commands of the README's MQTT block, continuation lines joined, comments left out */
    private static List<String> readmeMqttBlock() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("README.md"), StandardCharsets.UTF_8);
        int at = 0;
        while (!lines.get(at).startsWith("Over MQTT (subscriptions are granted")) {
            at++;
        }
        while (!lines.get(at).equals("```bash")) {
            at++;
        }
        List<String> commands = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (at++; !lines.get(at).equals("```"); at++) {
            String line = lines.get(at).strip();
            if (line.startsWith("#") || line.startsWith("TOKEN=")) {
                continue;
            }
            if (line.endsWith("\\")) {
                current.append(line, 0, line.length() - 1);
            } else {
                commands.add(current.append(line).toString().strip());
                current.setLength(0);
            }
        }
        return commands;
    }

    private static String command(List<String> commands, String program, String naming) {
        return commands.stream().filter(c -> c.startsWith(program + " ") && c.contains(naming)).findFirst()
                .orElseThrow(() -> new AssertionError("The README's MQTT block has no " + program + " command with '" + naming
                        + "': " + commands));
    }

    private Process start(String readmeCommand, ApiClient.Device device, String name) throws IOException {
        String local = readmeCommand.replace("-p 1883", "-p " + mqttPort).replace("localhost:8080", "localhost:" + port);
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", local)
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile());
        builder.environment().put("TOKEN", device.token());
        builder.environment().put("ID", device.id().toString());
        builder.environment().put("PASS", ApiClient.PASSWORD);
        return builder.start();
    }

    private String output(String name) throws IOException {
        return Files.readString(dir.resolve(name + ".out")).strip();
    }

    private static boolean onPath(String program) {
        for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(folder, program))) {
                return true;
            }
        }
        return false;
    }
}
