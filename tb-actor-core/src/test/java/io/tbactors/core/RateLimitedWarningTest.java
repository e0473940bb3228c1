package io.tbactors.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class RateLimitedWarningTest {

    @Test
    void theFirstEventIsLoggedAndTheNextOnesWithinTheIntervalAreOnlyCounted() {
        Duration interval = Duration.ofMillis(300);
        RateLimitedWarning warning = new RateLimitedWarning(interval);
        List<Long> lines = new ArrayList<>();
        long start = System.nanoTime();

        warning.warn(lines::add);
        warning.warn(lines::add);
        warning.warn(lines::add);
        warning.warn(lines::add);
        assertThat(lines).as("one line, nothing held back before it").containsExactly(0L);

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> System.nanoTime() - start > interval.toNanos());
        warning.warn(lines::add);

        assertThat(lines).as("the next line says how many were held back").containsExactly(0L, 3L);
    }

    @Test
    void anIntervalThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> new RateLimitedWarning(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
    }
}
