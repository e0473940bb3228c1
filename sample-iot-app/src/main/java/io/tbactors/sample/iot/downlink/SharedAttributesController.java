package io.tbactors.sample.iot.downlink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.tbactors.sample.iot.actors.msg.SharedAttributesUpdatedMsg;
import io.tbactors.sample.iot.cluster.ClusterDeviceSessions;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.storage.KvCodec;
import io.tbactors.sample.iot.storage.SharedAttributesDao;
import io.tbactors.sample.iot.web.ApiException;
import io.tbactors.spring.ActorSystemContext;
import lombok.RequiredArgsConstructor;
import lombok.extern.slf4j.Slf4j;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * ThingsBoard's attribute API for shared attributes: {@code POST
 * /api/plugins/telemetry/DEVICE/{deviceId}/attributes/SHARED_SCOPE} with {@code {"key": value, ...}} stores them and
 * pushes them to the device's sessions subscribed to attribute updates; {@code GET
 * /api/plugins/telemetry/DEVICE/{deviceId}/values/attributes/SHARED_SCOPE} lists them.
 */
@Slf4j
@RestController
@RequestMapping("/api/plugins/telemetry/DEVICE/{deviceId}")
@RequiredArgsConstructor
public class SharedAttributesController {

    /** ThingsBoard's name of the scope the server sets and the device reads. */
    public static final String SHARED_SCOPE = "SHARED_SCOPE";

    private final DeviceService deviceService;
    private final SharedAttributesDao dao;
    private final ActorSystemContext actorSystemContext;
    private ClusterDeviceSessions cluster;
    private final JsonMapper jsonMapper;

    /** @param cluster with the {@code cluster} profile, takes the change to the device's owner node */
    @Autowired(required = false)
    void setCluster(ClusterDeviceSessions cluster) {
        this.cluster = cluster;
    }

    /**
     * A stored attribute as ThingsBoard lists it.
     *
     * @param key the key
     * @param value the value
     * @param lastUpdateTs when it was set, epoch milliseconds
     */
    public record AttributeView(String key, Object value, long lastUpdateTs) {
    }

    /**
     * @param deviceId the device
     * @param scope {@code SHARED_SCOPE}
     * @param body a JSON object of key to value (number, boolean, string or JSON)
     * @return 200 once stored; the device's subscribed sessions get them next
     */
    @PostMapping("/attributes/{scope}")
    public ResponseEntity<Void> save(@PathVariable UUID deviceId, @PathVariable String scope, @RequestBody JsonNode body) {
        Device device = deviceService.getById(deviceId);
        checkScope(scope);
        if (body == null || !body.isObject() || body.isEmpty()) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "The body must be a JSON object of at least one attribute, "
                    + "e.g. {\"targetTemperature\": 22.5}");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : body.properties()) {
            if (entry.getKey().isBlank() || entry.getKey().length() > 255) {
                throw new ApiException(HttpStatus.BAD_REQUEST, "Attribute keys are 1 to 255 characters, not blank");
            }
            if (entry.getValue().isNull()) {
                throw new ApiException(HttpStatus.BAD_REQUEST, "Attribute '" + entry.getKey() + "' is null: a value is a "
                        + "number, a boolean, a string or a JSON object or array");
            }
            values.put(entry.getKey(), KvCodec.normalize(jsonMapper.treeToValue(entry.getValue(), Object.class)));
        }
        dao.save(device.id(), System.currentTimeMillis(), values);
        SharedAttributesUpdatedMsg updated = new SharedAttributesUpdatedMsg(device.tenantId(), device.id(), body);
        if (cluster != null) {
            cluster.tellOwner(updated);
            return ResponseEntity.ok().build();
        }
        try {
            actorSystemContext.tell(updated);
        } catch (IllegalStateException notRunning) {
            // stored: a device asks for its attributes when it connects, as ThingsBoard's SDKs do
            log.warn("Shared attributes of device {} stored but not pushed to its sessions: the actors are not running",
                    device.id());
        }
        return ResponseEntity.ok().build();
    }

    /**
     * @param deviceId the device
     * @param scope {@code SHARED_SCOPE}
     * @return its shared attributes, by key
     */
    @GetMapping("/values/attributes/{scope}")
    public List<AttributeView> list(@PathVariable UUID deviceId, @PathVariable String scope) {
        Device device = deviceService.getById(deviceId);
        checkScope(scope);
        List<AttributeView> views = new ArrayList<>();
        dao.findAll(device.id()).forEach((key, value) -> views.add(new AttributeView(key, value.value(), value.ts())));
        return views;
    }

    private static void checkScope(String scope) {
        if (!SHARED_SCOPE.equals(scope)) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "Scope '" + scope + "' is not served here: only " + SHARED_SCOPE
                    + " (client attributes come from the device, GET /api/devices/{id}/attributes)");
        }
    }
}
