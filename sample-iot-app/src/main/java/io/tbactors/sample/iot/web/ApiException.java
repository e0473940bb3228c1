package io.tbactors.sample.iot.web;

import org.springframework.http.HttpStatus;

/**
 * A request the API refuses with a given status and a message for the client.
 */
public class ApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final HttpStatus status;

    /**
     * @param status the response status
     * @param message what is wrong, for the client
     */
    public ApiException(HttpStatus status, String message) {
        super(message);
        this.status = status;
    }

    /** @return the response status */
    public HttpStatus getStatus() {
        return status;
    }
}
