package io.tbactors.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

class ActorsHealthIndicatorTest {

    @Test
    void aRunningSystemIsUpWithDetailsPerDispatcher() {
        try (BlockingActorSystem actors = new BlockingActorSystem()) {
            Health health = new ActorsHealthIndicator(actors.system, actors.context, 10).health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("actors", 2).containsEntry("backlog", 0L)
                    .containsEntry("backlogWarningThreshold", 10L).containsEntry("acceptingMessages", true);
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> dispatchers = (Map<String, Map<String, Object>>) health.getDetails().get("dispatchers");
            assertThat(dispatchers).containsOnlyKeys("main", "side");
            assertThat(dispatchers.get("side")).containsEntry("kind", "single").containsEntry("actors", 1)
                    .containsKeys("threads", "active", "queued", "backlog", "terminated");
        }
    }

    @Test
    void aBacklogAboveTheThresholdIsAWarning() throws InterruptedException {
        try (BlockingActorSystem actors = new BlockingActorSystem()) {
            actors.buildBacklog(11);
            Health health = new ActorsHealthIndicator(actors.system, actors.context, 10).health();

            assertThat(health.getStatus()).isEqualTo(ActorsHealthIndicator.WARNING);
            assertThat(health.getDetails()).containsEntry("backlog", 11L);
            assertThat((String) health.getDetails().get("reason")).contains("11 messages wait");
            assertThat(new ActorsHealthIndicator(actors.system, actors.context, 11).health().getStatus()).isEqualTo(Status.UP);
        }
    }

    @Test
    void aStoppedSystemIsDown() {
        BlockingActorSystem actors = new BlockingActorSystem();
        actors.close();
        Health health = new ActorsHealthIndicator(actors.system, actors.context, 10).health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("reason", "the actor system is stopped");
    }

    @Test
    void aTerminatedDispatcherMakesTheSystemDown() {
        try (BlockingActorSystem actors = new BlockingActorSystem()) {
            actors.system.getDispatcher("side").orElseThrow().getExecutor().shutdownNow();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
                    .until(() -> actors.system.getDispatcher("side").orElseThrow().isTerminated());
            Health health = new ActorsHealthIndicator(actors.system, actors.context, 10).health();

            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("reason", "a dispatcher's threads have terminated");
        }
    }
}
