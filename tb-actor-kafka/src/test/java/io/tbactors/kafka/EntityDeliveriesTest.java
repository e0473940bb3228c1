package io.tbactors.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class EntityDeliveriesTest {

    @Test
    void theRedeliveryDelayDoublesWithEachAttemptUpToItsBound() {
        TbClusterProperties properties = new TbClusterProperties();
        properties.setRedeliveryDelay(Duration.ofMillis(100));
        properties.setMaxRedeliveryDelay(Duration.ofMillis(1000));
        EntityDeliveries deliveries = new EntityDeliveries(null, properties);

        assertThat(IntStream.rangeClosed(1, 6).mapToLong(deliveries::backoffMillis).boxed().toList())
                .containsExactly(100L, 200L, 400L, 800L, 1000L, 1000L);
        assertThat(deliveries.backoffMillis(1000)).as("no overflow after many attempts").isEqualTo(1000L);
    }

    @Test
    void aBoundBelowTheFirstDelayKeepsTheFirstDelay() {
        TbClusterProperties properties = new TbClusterProperties();
        properties.setRedeliveryDelay(Duration.ofSeconds(2));
        properties.setMaxRedeliveryDelay(Duration.ofSeconds(1));

        assertThat(new EntityDeliveries(null, properties).backoffMillis(3)).isEqualTo(2000L);
    }
}
