package io.tbactors.kafka.example;

import io.tbactors.api.TbActorMsg;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Where the README's example actors store what devices send. */
final class ReadingRepository {
    private final List<TbActorMsg> saved = new CopyOnWriteArrayList<>();

    void save(TbActorMsg payload) {
        saved.add(payload);
    }

    List<TbActorMsg> saved() {
        return saved;
    }
}
