package io.tbactors.sample.iot.web;

import java.io.IOException;
import java.io.InputStream;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.util.unit.DataSize;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Request bodies read by the controllers themselves, with a size limit that holds whether or not the client declares
 * a length, and the one wording of a JSON syntax error.
 */
public final class RequestBodies {

    private RequestBodies() {
    }

    /**
     * Refuses a body whose declared length is over the limit, without reading it.
     *
     * @param limit the largest body
     * @param property the property that sets the limit, named in the refusal
     * @throws ApiException 413 when the declared length is over the limit
     */
    public static void checkDeclaredLength(HttpServletRequest request, DataSize limit, String property) {
        if (request.getContentLengthLong() > limit.toBytes()) {
            throw tooLarge(limit, property);
        }
    }

    /**
     * @param limit the largest body
     * @param property the property that sets the limit, named in the refusal
     * @return the body
     * @throws ApiException 413 when the body is over the limit
     * @throws IOException when reading fails
     */
    public static byte[] read(HttpServletRequest request, DataSize limit, String property) throws IOException {
        checkDeclaredLength(request, limit, property);
        long max = limit.toBytes();
        try (InputStream in = request.getInputStream()) {
            byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
            if (body.length > max) {
                throw tooLarge(limit, property);
            }
            return body;
        }
    }

    /**
     * Reads a JSON body with a size limit; malformed JSON is a 400 that says where.
     *
     * @param limit the largest body
     * @param property the property that sets the limit, named in the refusal
     * @param jsonMapper parses the body
     * @return the body's JSON
     * @throws ApiException 413 when the body is over the limit, 400 when it is not JSON
     * @throws IOException when reading fails
     */
    public static JsonNode readJson(HttpServletRequest request, DataSize limit, String property, JsonMapper jsonMapper)
            throws IOException {
        byte[] body = read(request, limit, property);
        try {
            return jsonMapper.readTree(body);
        } catch (JacksonException e) {
            throw new ApiException(HttpStatus.BAD_REQUEST, malformedJson(e));
        }
    }

    /**
     * @param e a JSON syntax error
     * @return what is wrong and where, for the client
     */
    public static String malformedJson(JacksonException e) {
        TokenStreamLocation location = e.getLocation();
        String at = location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
        return "Malformed JSON" + at + ": " + e.getOriginalMessage();
    }

    private static ApiException tooLarge(DataSize limit, String property) {
        return new ApiException(HttpStatus.CONTENT_TOO_LARGE, "Request body is larger than the limit of "
                + limit.toKilobytes() + " KB (" + property + ")");
    }
}
