package io.tbactors.rule.example;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.stereotype.Service;

/** Stands for your storage: saves on another thread and says when the save is done. */
@Service
public class ReadingStore {

    public record Reading(UUID deviceId, long ts, String key, Object value) {
    }

    private final List<Reading> readings = new CopyOnWriteArrayList<>();

    public CompletableFuture<Void> save(UUID deviceId, long ts, Map<String, Object> values) {
        return CompletableFuture.runAsync(() -> values.forEach((key, value) -> readings.add(new Reading(deviceId, ts, key, value))));
    }

    public List<Reading> readings() {
        return List.copyOf(readings);
    }
}
