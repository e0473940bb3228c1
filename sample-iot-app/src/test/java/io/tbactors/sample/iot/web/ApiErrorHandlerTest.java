package io.tbactors.sample.iot.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;

import org.apache.catalina.connector.ClientAbortException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;

@ExtendWith(OutputCaptureExtension.class)
class ApiErrorHandlerTest {

    private final ApiErrorHandler handler = new ApiErrorHandler();
    private final MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/token/telemetry");

    @Test
    void aClientThatHungUpIsNotAnErrorAndGetsNoAnswer(CapturedOutput output) {
        ResponseEntity<Object> response = handler.handleUnexpected(
                new ClientAbortException(new IOException("Broken pipe")), request);

        assertThat(response).isNull();
        assertThat(output.getOut()).doesNotContain("ERROR").doesNotContain("Unexpected failure");
    }

    @Test
    void anUnexpectedFailureIsLoggedAsAnErrorAndAnswers500(CapturedOutput output) {
        ResponseEntity<Object> response = handler.handleUnexpected(new IllegalStateException("boom"), request);

        assertThat(response.getStatusCode().value()).isEqualTo(500);
        assertThat(output.getOut()).contains("ERROR", "Unexpected failure of POST /api/v1/token/telemetry", "boom");
    }
}
