package io.tbactors.sample.iot.console;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import lombok.RequiredArgsConstructor;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.tbactors.sample.iot.config.SampleProperties;

import io.tbactors.sample.iot.console.ConsoleViews.Actors;
import io.tbactors.sample.iot.console.ConsoleViews.Alarms;
import io.tbactors.sample.iot.console.ConsoleViews.Devices;
import io.tbactors.rule.chain.RuleChainValidationException;
import io.tbactors.rule.chain.RuleChainValidator;
import io.tbactors.sample.iot.web.RequestBodies;

/**
 * The console's data (management credentials, like the rest of {@code /api}): the views it shows, and the stream
 * of their changes.
 */
@RestController
@RequestMapping("/api/console")
@RequiredArgsConstructor
public class ConsoleController {

    private final ConsoleSnapshots snapshots;
    private final ConsoleEventStream events;
    private final RuleChainValidator validator;
    private final SampleProperties properties;
    private final JsonMapper jsonMapper;

    /**
     * What the validation of a chain found.
     *
     * @param valid whether a {@code PUT} of it would be accepted
     * @param errors what is wrong, each starting with where it is ({@code nodes[2].configuration.condition: ...})
     */
    public record Validation(boolean valid, List<String> errors) {
    }

    /** @return the devices with their latest values */
    @GetMapping("/devices")
    public Devices devices() {
        return snapshots.devices();
    }

    /** @return the newest alarms */
    @GetMapping("/alarms")
    public Alarms alarms() {
        return snapshots.alarms();
    }

    /** @return the actor tree and the dispatchers */
    @GetMapping("/actors")
    public Actors actors() {
        return snapshots.actors();
    }

    /** @return server-sent events {@code devices}, {@code alarms} and {@code actors}, each sent when it changes */
    @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public SseEmitter events() {
        return events.open();
    }

    /**
     * Validates a rule chain as a {@code PUT} would, without storing it: the editor shows the errors as one types.
     *
     * @param request its body is the chain's JSON, at most {@code sample.rule-engine.max-chain-size}
     * @return whether it is valid, and what is wrong
     * @throws IOException when reading the body fails
     */
    @PostMapping("/rule-chains/validate")
    public Validation validate(HttpServletRequest request) throws IOException {
        JsonNode json = RequestBodies.readJson(request, properties.getRuleEngine().getMaxChainSize(),
                "sample.rule-engine.max-chain-size", jsonMapper);
        try {
            validator.parse(json, "unnamed");
            return new Validation(true, List.of());
        } catch (RuleChainValidationException e) {
            return new Validation(false, e.getErrors());
        }
    }
}
