package io.tbactors.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;

class ReadinessFollowsKafkaTest {

    private static final ClusterConnectivity.Status REACHABLE = new ClusterConnectivity.Status(true, true, null, Instant.now());
    private static final ClusterConnectivity.Status UNREACHABLE = new ClusterConnectivity.Status(false, false, "down", Instant.now());

    private final List<Object> published = new ArrayList<>();
    private final AtomicReference<ReadinessState> current = new AtomicReference<>(ReadinessState.ACCEPTING_TRAFFIC);
    private final ReadinessFollowsKafka readiness = new ReadinessFollowsKafka(event -> {
        published.add(((AvailabilityChangeEvent<?>) event).getState());
        current.set((ReadinessState) ((AvailabilityChangeEvent<?>) event).getState());
    }, current::get);

    @Test
    void readinessRefusesTrafficWhileKafkaIsUnreachableAndAcceptsItOnceKafkaIsBack() {
        readiness.accept(REACHABLE);
        assertThat(published).as("nothing to hand back").isEmpty();

        readiness.accept(UNREACHABLE);
        readiness.accept(UNREACHABLE);
        assertThat(published).containsExactly(ReadinessState.REFUSING_TRAFFIC);

        readiness.accept(REACHABLE);
        readiness.accept(REACHABLE);
        assertThat(published).containsExactly(ReadinessState.REFUSING_TRAFFIC, ReadinessState.ACCEPTING_TRAFFIC);
    }

    @Test
    void readinessAcceptedByTheApplicationMeanwhileIsRefusedAgainWhileKafkaStaysUnreachable() {
        readiness.accept(UNREACHABLE);
        current.set(ReadinessState.ACCEPTING_TRAFFIC);

        readiness.accept(UNREACHABLE);

        assertThat(published).containsExactly(ReadinessState.REFUSING_TRAFFIC, ReadinessState.REFUSING_TRAFFIC);
        assertThat(current).hasValue(ReadinessState.REFUSING_TRAFFIC);
    }
}
