package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Actors enter the idle wheel from many dispatcher threads while its task empties slots every millisecond: none may
 * be lost (it would never be passivated) and none passivated twice.
 */
class IdleWheelConcurrencyTest {

    private final DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder()
            .passivationTick(Duration.ofMillis(1)).build());

    IdleWheelConcurrencyTest() {
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 4);
    }

    @AfterEach
    void stopSystem() {
        system.stop();
    }

    @Test
    void everyActorThatEntersTheWheelWhileItTurnsIsPassivatedExactlyOnce() {
        int actors = 3_000;
        for (int i = 0; i < actors; i++) {
            system.createRootActor("d", creator(new TbStringActorId("idle-" + i), () -> new ProbeActor(new ProbeActor.Record()) {
                @Override
                void onInit(TbActorCtx ctx, int attempt) {
                    ctx.setIdleTimeout(Duration.ofMillis(1 + Math.floorMod(ctx.getSelf().hashCode(), 5)));
                }
            }));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> system.getActorCount() == 0);
        assertThat(system.getPassivatedCount()).isEqualTo(actors);
    }
}
