package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.web.FilterChainProxy;

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

    @Test
    void theDeviceApiAnswersOtherMethodsAndPathsWithProblemDetails() throws IOException {
        String get = raw("GET /api/v1/some-token/telemetry HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        String unknown = raw("POST /api/v1/some-token/firmware HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n"
                + "Connection: close\r\n\r\n{}");
        // a body that is sent, so that the container can discard it and close the connection
        String tooLarge = raw("POST /api/v1/some-token/telemetry HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Length: 70000\r\nConnection: close\r\n\r\n" + "x".repeat(70_000));

        assertThat(get).startsWith("HTTP/1.1 405").contains("Allow: POST", "takes POST only, not GET");
        assertProblem(get, 405);
        assertThat(unknown).startsWith("HTTP/1.1 404").contains("POST /api/v1/{accessToken}/telemetry");
        assertProblem(unknown, 404);
        assertThat(tooLarge).as("refused unread").startsWith("HTTP/1.1 413").contains("sample.device-api.max-payload-size");
        assertProblem(tooLarge, 413);
    }

    @Test
    void theDeviceApisSecurityChainRunsNoAuthenticationSessionOrHeaderFilter(@Autowired FilterChainProxy security) {
        // the one filter Spring Security always adds: it only hands the security context to async work
        assertThat(security.getFilters("/api/v1/some-token/telemetry")).as("the device API's filters")
                .extracting(filter -> filter.getClass().getSimpleName()).containsExactly("WebAsyncManagerIntegrationFilter");
        assertThat(security.getFilters("/api/devices")).as("the management API's filters").isNotEmpty();
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
