package io.tbactors.sample.iot.web;

import java.net.URI;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * Error bodies of the API: RFC 9457 problem details ({@code type, title, status, detail, instance}), as JSON.
 */
public final class ProblemResponses {

    /** Seconds a client told to try again later waits: the in-flight bounds and queues drain within about that. */
    public static final String RETRY_AFTER_SECONDS = "1";

    private ProblemResponses() {
    }

    /**
     * @param detail what went wrong, for the client
     * @param path the request path
     * @return the problem detail
     */
    public static ProblemDetail problem(HttpStatus status, String detail, String path) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        if (path != null) {
            problem.setInstance(URI.create(path));
        }
        return problem;
    }

    /**
     * A response with a problem detail body; a 429 or a 503 also says when to try again ({@code Retry-After}), so a
     * client told to come back later is told when.
     *
     * @param detail what went wrong, for the client
     * @param path the request path
     * @return a response with a problem detail body
     */
    public static ResponseEntity<Object> of(HttpStatus status, String detail, String path) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (isRetryLater(status.value())) {
            response.header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        return response.body(problem(status, detail, path));
    }

    /**
     * @param status an HTTP status
     * @return whether it tells the client to try again later (429, 503), which a {@code Retry-After} goes with
     */
    public static boolean isRetryLater(int status) {
        return status == HttpStatus.TOO_MANY_REQUESTS.value() || status == HttpStatus.SERVICE_UNAVAILABLE.value();
    }

    /**
     * @param failure a failure, possibly wrapped by a future
     * @return a message for the client about the underlying cause
     */
    public static String rootMessage(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof TimeoutException) {
            return "the actor system did not accept it in time";
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
    }
}
