package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Clients that announce a body and trickle it must not starve the others: 300 of them (more than Tomcat's 200
 * request threads) hold connections open while health and a normal device post still answer within a second; each
 * trickler gets 408 once {@code sample.device-api.body-read-timeout} has passed.
 */
class SlowClientEndToEndTest extends EndToEndTest {

    private static final int SLOW_CLIENTS = 300;

    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void closeSockets() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    @Test
    void threeHundredTricklingClientsDoNotDelayHealthOrANormalPost() throws Exception {
        ApiClient.Device device = newDevice();
        for (int i = 0; i < SLOW_CLIENTS; i++) {
            Socket socket = new Socket("localhost", port);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/v1/" + device.token() + "/telemetry HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"a\":").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            sockets.add(socket);
        }

        HttpClient quick = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(1)).build();
        HttpResponse<String> health = quick.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health"))
                .timeout(Duration.ofSeconds(1)).GET().build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> post = quick.send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + "/api/v1/" + device.token() + "/telemetry"))
                .timeout(Duration.ofSeconds(1)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"b\": 1}")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(post.statusCode()).isEqualTo(200);
        Socket first = sockets.get(0);
        first.setSoTimeout(30_000);
        String answer = readHead(first.getInputStream());
        assertThat(answer).startsWith("HTTP/1.1 408").contains("application/problem+json");
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && !head.toString().endsWith("\r\n\r\n")) {
            head.append((char) c);
        }
        return head.toString();
    }
}
