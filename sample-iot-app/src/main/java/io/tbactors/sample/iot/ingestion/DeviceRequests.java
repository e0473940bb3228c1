package io.tbactors.sample.iot.ingestion;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.tbactors.core.dispatch.NamedThreadFactory;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.storage.AttributesDao;
import io.tbactors.sample.iot.storage.SharedAttributesDao;
import io.tbactors.sample.iot.storage.TsValue;
import io.tbactors.sample.iot.web.ApiException;
import jakarta.annotation.PreDestroy;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The device API's requests that ask something back, whatever transport brought them: attribute requests
 * (ThingsBoard's {@code {"clientKeys": "a,b", "sharedKeys": "c"}}, answered {@code {"client": {...}, "shared": {...}}})
 * and the reading of client-side RPC requests ({@code {"method", "params"}}), which the tenant's rule chain answers.
 */
@Component
public class DeviceRequests {

    private static final int READERS = 2;
    private static final int MAX_WAITING_READS = 1_000;

    private final AttributesDao clientAttributes;
    private final SharedAttributesDao sharedAttributes;
    private final JsonMapper jsonMapper;
    private final ThreadPoolExecutor readers = new ThreadPoolExecutor(READERS, READERS, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(MAX_WAITING_READS), new NamedThreadFactory("device-requests"));

    /**
     * @param clientAttributes the attributes devices post
     * @param sharedAttributes the attributes the server sets
     * @param jsonMapper reads requests and writes answers
     */
    public DeviceRequests(AttributesDao clientAttributes, SharedAttributesDao sharedAttributes, JsonMapper jsonMapper) {
        this.clientAttributes = clientAttributes;
        this.sharedAttributes = sharedAttributes;
        this.jsonMapper = jsonMapper;
    }

    /**
     * Keys asked for: null for a scope means all of its keys; an empty list, none of them.
     *
     * @param clientKeys client-side attribute keys
     * @param sharedKeys shared attribute keys
     */
    public record AttributesQuery(List<String> clientKeys, List<String> sharedKeys) {

        /**
         * ThingsBoard's rule: with neither list given, every attribute of both scopes; with one, only that scope.
         *
         * @param clientKeys comma-separated keys or null
         * @param sharedKeys comma-separated keys or null
         * @return the query
         */
        public static AttributesQuery of(String clientKeys, String sharedKeys) {
            if (clientKeys == null && sharedKeys == null) {
                return new AttributesQuery(null, null);
            }
            return new AttributesQuery(keys(clientKeys), keys(sharedKeys));
        }

        private static List<String> keys(String csv) {
            return csv == null ? List.of() : Arrays.stream(csv.split(",")).map(String::trim).filter(k -> !k.isEmpty()).toList();
        }
    }

    /**
     * @param payload the request's body
     * @return the keys it asks for
     * @throws ApiException 400 for a body that is not such a JSON object
     */
    public AttributesQuery parseAttributesQuery(byte[] payload) {
        JsonNode body = payload.length == 0 ? jsonMapper.createObjectNode() : readObject(payload,
                "an attribute request is a JSON object {\"clientKeys\": \"a,b\", \"sharedKeys\": \"c\"}");
        return AttributesQuery.of(text(body, "clientKeys"), text(body, "sharedKeys"));
    }

    /**
     * Reads the attributes off the transport's threads.
     *
     * @param device the device
     * @param query the keys
     * @return completes with {@code {"client": {...}, "shared": {...}}} (a scope not asked for is left out);
     *     exceptionally with {@link RejectedExecutionException} when too many reads wait
     */
    public CompletableFuture<ObjectNode> readAttributes(Device device, AttributesQuery query) {
        try {
            return CompletableFuture.supplyAsync(() -> read(device, query), readers);
        } catch (RejectedExecutionException tooMany) {
            return CompletableFuture.failedFuture(new RejectedExecutionException(MAX_WAITING_READS + " attribute reads "
                    + "already wait; ask again later", tooMany));
        }
    }

    private ObjectNode read(Device device, AttributesQuery query) {
        {
            ObjectNode answer = jsonMapper.createObjectNode();
            if (query.clientKeys() == null || !query.clientKeys().isEmpty()) {
                answer.set("client", select(clientAttributes.findAll(device.id()), query.clientKeys()));
            }
            if (query.sharedKeys() == null || !query.sharedKeys().isEmpty()) {
                answer.set("shared", select(sharedAttributes.findAll(device.id()), query.sharedKeys()));
            }
            return answer;
        }
    }

    /**
     * A device's own RPC request (client-side RPC), as read from its body.
     *
     * @param method the method
     * @param params the parameters ({@code {}} when absent)
     */
    public record ClientRpcRequest(String method, JsonNode params) {
    }

    /**
     * Reads a client-side RPC request; the tenant's rule chain answers it (see {@code DeviceActor}).
     *
     * @param payload {@code {"method": "...", "params": ...}}
     * @return the request
     * @throws ApiException 400 for a body without a method
     */
    public ClientRpcRequest parseClientRpc(byte[] payload) {
        JsonNode body = readObject(payload, "a client-side RPC request is a JSON object {\"method\": \"...\", \"params\": {...}}");
        String method = text(body, "method");
        if (method == null || method.isBlank()) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "The client-side RPC request has no \"method\": send "
                    + "{\"method\": \"getCurrentTime\", \"params\": {}}");
        }
        JsonNode params = body.get("params");
        return new ClientRpcRequest(method, params == null || params.isNull() ? jsonMapper.createObjectNode() : params);
    }

    private ObjectNode select(Map<String, TsValue> stored, List<String> keys) {
        ObjectNode values = jsonMapper.createObjectNode();
        stored.forEach((key, value) -> {
            if (keys == null || keys.contains(key)) {
                values.set(key, jsonMapper.valueToTree(value.value()));
            }
        });
        return values;
    }

    private JsonNode readObject(byte[] payload, String expected) {
        JsonNode body;
        try {
            body = jsonMapper.readTree(payload);
        } catch (JacksonException notJson) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "The body is not JSON (" + notJson.getOriginalMessage() + "): "
                    + expected);
        }
        if (body == null || !body.isObject()) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "The body is not a JSON object: " + expected);
        }
        return body;
    }

    private static String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }

    @PreDestroy
    void stop() {
        readers.shutdown();
    }
}
