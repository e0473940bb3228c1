package io.tbactors.kafka;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Keeps the application's readiness at {@code REFUSING_TRAFFIC} while Kafka or the group's coordinator cannot be
 * reached, and hands it back ({@code ACCEPTING_TRAFFIC}) once both answer again. Told every check, it refuses again
 * when something else (the application becoming ready) accepted traffic meanwhile.
 */
final class ReadinessFollowsKafka implements Consumer<ClusterConnectivity.Status> {

    private final ApplicationEventPublisher publisher;
    private final Supplier<ReadinessState> currentReadiness;
    private final AtomicBoolean refusing = new AtomicBoolean();

    /**
     * @param publisher where the readiness changes go
     * @param currentReadiness the application's readiness now, or null when unknown
     */
    ReadinessFollowsKafka(ApplicationEventPublisher publisher, Supplier<ReadinessState> currentReadiness) {
        this.publisher = publisher;
        this.currentReadiness = currentReadiness;
    }

    @Override
    public void accept(ClusterConnectivity.Status status) {
        if (!status.isReachable()) {
            if (!refusing.getAndSet(true) || currentReadiness.get() == ReadinessState.ACCEPTING_TRAFFIC) {
                AvailabilityChangeEvent.publish(publisher, status, ReadinessState.REFUSING_TRAFFIC);
            }
        } else if (refusing.compareAndSet(true, false)) {
            AvailabilityChangeEvent.publish(publisher, status, ReadinessState.ACCEPTING_TRAFFIC);
        }
    }
}
