package io.tbactors.sample.iot.web;

/**
 * An id in the request names nothing; answered with 404.
 */
public class NotFoundException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what was not found */
    public NotFoundException(String message) {
        super(message);
    }
}
