package io.tbactors.sample.iot.web;

import java.net.URI;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * Error bodies of the API: RFC 9457 problem details ({@code type, title, status, detail, instance}), as JSON.
 */
public final class ProblemResponses {

    private ProblemResponses() {
    }

    /**
     * @param status the status
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
     * @param status the status
     * @param detail what went wrong, for the client
     * @param path the request path
     * @return a response with a problem detail body
     */
    public static ResponseEntity<Object> of(HttpStatus status, String detail, String path) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem(status, detail, path));
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
