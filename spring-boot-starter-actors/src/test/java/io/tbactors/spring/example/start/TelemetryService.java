package io.tbactors.spring.example.start;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.stereotype.Service;

/** Stores readings; a Spring bean that device actors reach through the {@code ActorSystemContext}. */
@Service
class TelemetryService {
    private final List<String> stored = new CopyOnWriteArrayList<>();

    void save(UUID deviceId, double temperature) {
        stored.add(deviceId + "=" + temperature);
    }

    List<String> stored() {
        return stored;
    }
}
