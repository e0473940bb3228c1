package io.tbactors.sample.iot.downlink;

import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.tbactors.sample.iot.actors.msg.RpcOutcome;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.web.ProblemResponses;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
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
 * /api/rpc/twoway/{deviceId}} with {@code {"method", "params", "timeout"}}. Two-way answers 200 with the device's
 * response; both answer 504 (ThingsBoard's status) when the device did not take or answer the request in time.
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

    private DeferredResult<ResponseEntity<?>> send(UUID deviceId, boolean oneway, DeviceRpcService.RpcRequest request) {
        Device device = deviceService.getById(deviceId);
        DeferredResult<ResponseEntity<?>> result =
                new DeferredResult<>(rpcService.getMaxTimeout().toMillis() + HTTP_MARGIN_MS);
        result.onTimeout(() -> result.setErrorResult(problem(HttpStatus.SERVICE_UNAVAILABLE,
                "The RPC request got no outcome from the device's actor in time")));
        rpcService.send(device, oneway, request).orTimeout(rpcService.getMaxTimeout().toMillis() + HTTP_MARGIN_MS,
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
