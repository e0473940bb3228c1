package io.tbactors.sample.iot.web;

import java.io.IOException;
import java.io.Writer;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.HttpStatus;

/**
 * Tomcat's error report as a problem detail instead of an HTML page: what Tomcat answers itself, before any of the
 * application's code runs (a request line it cannot parse, a bad escape in the path), is
 * {@code application/problem+json} like every other error of the API. Installed on the host by {@link WebErrors}.
 */
public class ProblemJsonErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        // as the HTML report: nothing for a success, nothing when a body was written, report an error once
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known != null ? known.getReasonPhrase() : "Error";
        String message = response.getMessage();
        String detail = message == null || message.isBlank() ? title : message;
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"type\":\"about:blank\",\"title\":" + quoted(title) + ",\"status\":" + status + ",\"detail\":"
                        + quoted(detail) + "}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response cannot take a body: nothing more to do
        }
    }

    private static String quoted(String text) {
        StringBuilder json = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        return json.append('"').toString();
    }
}
