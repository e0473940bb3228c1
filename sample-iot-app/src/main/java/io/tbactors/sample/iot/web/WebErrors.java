package io.tbactors.sample.iot.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.core.StandardHost;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/**
 * The errors that do not pass through the controllers' exception handler, as problem details too: Tomcat's own
 * reports ({@link ProblemJsonErrorReportValve}), Spring Security's firewall (a request it rejects) and the
 * {@code /error} page the container forwards to.
 */
@Configuration(proxyBeanMethods = false)
public class WebErrors {

    /** @return puts {@link ProblemJsonErrorReportValve} in place of Tomcat's HTML error report */
    @Bean
    public WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemJsonErrorReports() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemJsonErrorReportValve.class.getName());
            }
        });
    }

    /**
     * @param jsonMapper writes the body
     * @return answers a request the firewall rejects with 400 and the firewall's reason
     */
    @Bean
    public RequestRejectedHandler problemJsonRequestRejectedHandler(JsonMapper jsonMapper) {
        return (HttpServletRequest request, HttpServletResponse response, RequestRejectedException e) -> {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, LogText.escape(e.getMessage()));
            jsonMapper.writeValue(response.getOutputStream(), problem);
        };
    }

    /** The {@code /error} page: a problem detail with the status the container forwarded, instead of Boot's map. */
    @RestController
    static class ProblemErrorController implements ErrorController {

        @RequestMapping("${server.error.path:${error.path:/error}}")
        ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
            Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
            HttpStatus status = code instanceof Integer value && HttpStatus.resolve(value) != null
                    ? HttpStatus.resolve(value) : HttpStatus.INTERNAL_SERVER_ERROR;
            Object message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
            // an exception's message stays in the log; a plain sendError message is meant for the client
            boolean fromException = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) != null;
            String detail = !fromException && message instanceof String text && !text.isBlank() ? text : status.getReasonPhrase();
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
            Object path = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
            if (path instanceof String uri) {
                problem.setProperty("path", uri);
            }
            return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
        }
    }
}
