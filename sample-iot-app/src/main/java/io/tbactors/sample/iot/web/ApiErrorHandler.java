package io.tbactors.sample.iot.web;

import java.util.List;

import io.tbactors.rule.chain.RuleChainValidationException;
import jakarta.servlet.http.HttpServletRequest;
import lombok.extern.slf4j.Slf4j;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.util.DisconnectedClientHelper;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;

/**
 * Turns every failure into a JSON problem detail with a message that says what is wrong: Spring MVC's own
 * exceptions (unreadable body, invalid arguments, unknown paths) through the base class, the API's below.
 */
@Slf4j
@RestControllerAdvice
public class ApiErrorHandler extends ResponseEntityExceptionHandler {

    /**
     * @param e a refused request
     * @return its status and message
     */
    @ExceptionHandler(ApiException.class)
    public ResponseEntity<Object> handleApiException(ApiException e, HttpServletRequest request) {
        return ProblemResponses.of(e.getStatus(), e.getMessage(), request.getRequestURI());
    }

    /**
     * @param e an unknown id
     * @return 404
     */
    @ExceptionHandler(NotFoundException.class)
    public ResponseEntity<Object> handleNotFound(NotFoundException e, HttpServletRequest request) {
        return ProblemResponses.of(HttpStatus.NOT_FOUND, e.getMessage(), request.getRequestURI());
    }

    /**
     * @param e an invalid rule chain
     * @return 400 with the list of errors, each with its location, under {@code errors}
     */
    @ExceptionHandler(RuleChainValidationException.class)
    public ResponseEntity<Object> handleInvalidRuleChain(RuleChainValidationException e, HttpServletRequest request) {
        ProblemDetail problem = ProblemResponses.problem(HttpStatus.BAD_REQUEST, e.getMessage(), request.getRequestURI());
        problem.setProperty("errors", e.getErrors());
        return ResponseEntity.badRequest().body(problem);
    }

    /**
     * @param e a duplicate (a device name taken) or a concurrent update
     * @return 409
     */
    @ExceptionHandler({DuplicateKeyException.class, OptimisticLockingFailureException.class})
    public ResponseEntity<Object> handleConflict(RuntimeException e, HttpServletRequest request) {
        String detail = e instanceof DuplicateKeyException && e.getMessage() != null && !e.getMessage().contains("SQL")
                ? e.getMessage() : "The entity was changed or already exists; reload it and try again";
        return ProblemResponses.of(HttpStatus.CONFLICT, detail, request.getRequestURI());
    }

    @Override
    protected ResponseEntity<Object> createResponseEntity(Object body, HttpHeaders headers, HttpStatusCode statusCode,
                                                          WebRequest request) {
        // Spring's own 503 (an async request timed out) says when to come back, as the API's own 429s and 503s do
        if (ProblemResponses.isRetryLater(statusCode.value()) && !headers.containsHeader(HttpHeaders.RETRY_AFTER)) {
            HttpHeaders withRetry = new HttpHeaders();
            withRetry.putAll(headers);
            withRetry.set(HttpHeaders.RETRY_AFTER, ProblemResponses.RETRY_AFTER_SECONDS);
            return super.createResponseEntity(body, withRetry, statusCode, request);
        }
        return super.createResponseEntity(body, headers, statusCode, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        String detail = "Request body is missing or empty";
        Throwable cause = ex.getMostSpecificCause();
        if (cause instanceof JacksonException json) {
            detail = RequestBodies.malformedJson(json);
        }
        ProblemDetail body = createProblemDetail(ex, status, detail, null, null, request);
        return handleExceptionInternal(ex, body, headers, status, request);
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        List<String> errors = ex.getBindingResult().getFieldErrors().stream()
                .map(error -> error.getField() + ": " + error.getDefaultMessage())
                .toList();
        ProblemDetail body = createProblemDetail(ex, status, "Invalid request: " + String.join("; ", errors), null, null, request);
        body.setProperty("errors", errors);
        return handleExceptionInternal(ex, body, headers, status, request);
    }

    /**
     * @param e anything else
     * @return 500, with the details in the log only; nothing when the client has gone (it cannot be answered)
     */
    @ExceptionHandler(Exception.class)
    public ResponseEntity<Object> handleUnexpected(Exception e, HttpServletRequest request) {
        if (DisconnectedClientHelper.isClientDisconnectedException(e)) {
            // a client that hangs up is expected traffic, not a server failure
            if (log.isDebugEnabled()) {
                log.debug("Client went away during {} {}: {}", request.getMethod(), LogText.escape(request.getRequestURI()),
                        e.toString());
            }
            return null;
        }
        log.error("Unexpected failure of {} {}", request.getMethod(), LogText.escape(request.getRequestURI()), e);
        return ProblemResponses.of(HttpStatus.INTERNAL_SERVER_ERROR, "Unexpected server error; see the server log",
                request.getRequestURI());
    }
}
