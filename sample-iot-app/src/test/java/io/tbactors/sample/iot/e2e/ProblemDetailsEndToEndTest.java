package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * Every error the server produces is a problem detail ({@code application/problem+json}), wherever it comes from:
 * Tomcat's own request parsing, Spring Security's firewall, or the {@code /error} page. Raw requests, since a
 * well-behaved client cannot send most of them.
 */
class ProblemDetailsEndToEndTest extends EndToEndTest {

    @Test
    void tomcatsRefusalOfABadEscapeIsAProblemDetail() throws IOException {
        String response = raw("GET /api/devices/%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

        assertThat(response).startsWith("HTTP/1.1 400");
        assertProblem(response, 400);
    }

    @Test
    void theFirewallsRefusalIsAProblemDetailThatSaysWhy() throws IOException {
        String response = raw("GET /api/devices;x=1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

        assertThat(response).startsWith("HTTP/1.1 400");
        assertProblem(response, 400);
        assertThat(response).contains("rejected", "\\\";\\\"");
    }

    @Test
    void theErrorPageAnswersWithAProblemDetail() {
        ApiClient.Response response = api.get("/error");

        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(response.json().has("status")).isTrue();
        assertThat(response.json().has("title")).isTrue();
    }

    private static void assertProblem(String response, int status) {
        assertThat(response.toLowerCase()).contains("content-type: application/problem+json");
        assertThat(response).contains("\"status\":" + status).contains("\"title\":");
    }

    private String raw(String request) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.UTF_8);
        }
    }
}
