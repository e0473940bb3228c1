package io.tbactors.sample.iot.downlink;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.tbactors.sample.iot.actors.msg.RpcOutcome;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.storage.RpcDao;
import io.tbactors.sample.iot.web.ProblemResponses;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * ThingsBoard's server-side RPC API: {@code POST /api/rpc/oneway/{deviceId}} and {@code POST
 * /api/rpc/twoway/{deviceId}} with {@code {"method", "params", "timeout", "persistent", "expirationTime"}}. Two-way
 * answers 200 with the device's response; both answer 504 (ThingsBoard's status) when the device did not take or
 * answer the request in time. A persistent request is answered at once with {@code {"rpcId"}}; its state is listed by
 * {@code GET /api/rpc/persistent/device/{deviceId}} and {@code GET /api/rpc/persistent/{rpcId}}.
 */
@RestController
@RequestMapping("/api/rpc")
@RequiredArgsConstructor
public class RpcController {

    /** Added to the request's own timeout for the HTTP request's, so the actor's answer always comes first. */
    private static final long HTTP_MARGIN_MS = 5_000;

    private final DeviceService deviceService;
    private final DeviceRpcService rpcService;
    private final JsonMapper jsonMapper;

    /**
     * @param deviceId the device
     * @param request the request
     * @return 200 once sent to a session of the device; 504 when none took it in time
     */
    @PostMapping("/oneway/{deviceId}")
    public DeferredResult<ResponseEntity<?>> oneway(@PathVariable UUID deviceId,
                                                    @RequestBody DeviceRpcService.RpcRequest request) {
        return send(deviceId, true, request);
    }

    /**
     * @param deviceId the device
     * @param request the request
     * @return 200 with the device's response; 504 when it did not answer in time
     */
    @PostMapping("/twoway/{deviceId}")
    public DeferredResult<ResponseEntity<?>> twoway(@PathVariable UUID deviceId,
                                                    @RequestBody DeviceRpcService.RpcRequest request) {
        return send(deviceId, false, request);
    }

    /**
     * @param deviceId the device
     * @return its persistent requests with their states, newest first, as ThingsBoard's page ({@code data})
     */
    @GetMapping("/persistent/device/{deviceId}")
    public Map<String, Object> persistentOfDevice(@PathVariable UUID deviceId) {
        List<RpcDao.StoredRpc> rpcs = rpcService.persistent(deviceService.getById(deviceId));
        return Map.of("data", rpcs.stream().map(this::view).toList(), "totalElements", rpcs.size(), "hasNext", false);
    }

    /**
     * @param rpcId a persistent request
     * @return it with its state
     */
    @GetMapping("/persistent/{rpcId}")
    public Map<String, Object> persistent(@PathVariable UUID rpcId) {
        return view(rpcService.persistent(rpcId));
    }

    private Map<String, Object> view(RpcDao.StoredRpc rpc) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", rpc.id());
        view.put("deviceId", rpc.deviceId());
        view.put("createdTime", rpc.createdTime());
        view.put("expirationTime", rpc.expirationTime());
        view.put("status", rpc.status());
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("method", rpc.method());
        request.put("params", readOrText(rpc.params()));
        request.put("oneway", rpc.oneway());
        request.put("timeout", rpc.timeoutMs());
        view.put("request", request);
        view.put("response", rpc.response() == null ? null : readOrText(rpc.response()));
        view.put("reason", rpc.reason());
        return view;
    }

    private Object readOrText(String json) {
        try {
            return jsonMapper.readTree(json);
        } catch (JacksonException notJson) {
            return json;
        }
    }

    private DeferredResult<ResponseEntity<?>> send(UUID deviceId, boolean oneway, DeviceRpcService.RpcRequest request) {
        Device device = deviceService.getById(deviceId);
        if (request != null && Boolean.TRUE.equals(request.persistent())) {
            // ThingsBoard answers a persistent request at once with its id; its state is in the table
            DeferredResult<ResponseEntity<?>> stored = new DeferredResult<>();
            stored.setResult(ResponseEntity.ok(Map.of("rpcId", rpcService.send(device, oneway, request).rpcId())));
            return stored;
        }
        DeferredResult<ResponseEntity<?>> result =
                new DeferredResult<>(rpcService.getMaxTimeout().toMillis() + HTTP_MARGIN_MS);
        result.onTimeout(() -> result.setErrorResult(problem(HttpStatus.SERVICE_UNAVAILABLE,
                "The RPC request got no outcome from the device's actor in time")));
        rpcService.send(device, oneway, request).outcome().orTimeout(rpcService.getMaxTimeout().toMillis() + HTTP_MARGIN_MS,
                TimeUnit.MILLISECONDS).whenComplete((outcome, failure) -> result.setResult(failure != null
                ? problem(HttpStatus.SERVICE_UNAVAILABLE, "The RPC request got no outcome: "
                        + ProblemResponses.rootMessage(failure))
                : answer(outcome)));
        return result;
    }

    private ResponseEntity<?> answer(RpcOutcome outcome) {
        return switch (outcome.status()) {
            case SUCCESSFUL -> deviceResponse(outcome.response());
            case DELIVERED -> ResponseEntity.ok().build();
            case TIMEOUT -> problem(HttpStatus.GATEWAY_TIMEOUT, outcome.reason());
            default -> outcome.refused() ? problem(HttpStatus.TOO_MANY_REQUESTS, outcome.reason())
                    : problem(HttpStatus.SERVICE_UNAVAILABLE, "The RPC request failed: " + outcome.reason());
        };
    }

    private ResponseEntity<?> deviceResponse(String response) {
        if (response == null || response.isBlank()) {
            return ResponseEntity.ok().build();
        }
        try {
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(jsonMapper.readTree(response));
        } catch (JacksonException notJson) {
            // ThingsBoard's answer to a device response that is not JSON
            return problem(HttpStatus.NOT_ACCEPTABLE, "The device answered with something that is not JSON: "
                    + notJson.getOriginalMessage());
        }
    }

    private static ResponseEntity<?> problem(HttpStatus status, String detail) {
        // 429 and 503 carry Retry-After
        return ProblemResponses.of(status, detail, null);
    }
}
