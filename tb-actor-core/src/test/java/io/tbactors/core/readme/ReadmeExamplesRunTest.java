package io.tbactors.core.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.dispatch.DispatcherKind;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The README's examples run, not only compile. */
class ReadmeExamplesRunTest {

    record Reading() implements TbActorMsg { }

    @Test
    void theQuickStartRunsAndStops() {
        assertThatCode(() -> QuickStart.main(new String[0])).doesNotThrowAnyException();
    }

    @Test
    void theBackPressureFragmentAnswers429WhenTheMailboxIsFull() throws InterruptedException {
        DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder().build());
        system.createDispatcher("d", DispatcherKind.SINGLE, 1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch busy = new CountDownLatch(1);
        var device = system.createRootActor("d", new TbActorCreator() {
            @Override
            public io.tbactors.api.TbActorId createActorId() {
                return new TbStringActorId("device");
            }

            @Override
            public io.tbactors.api.TbActor createActor() {
                return new io.tbactors.api.AbstractTbActor() {
                    @Override
                    public boolean process(TbActorMsg msg) {
                        busy.countDown();
                        try {
                            release.await(10, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return true;
                    }
                };
            }

            @Override
            public TbMailboxBound getMailboxBound() {
                return TbMailboxBound.rejectNewest(1);
            }
        });
        try {
            assertThat(BackPressureExample.post(device, new Reading())).isEqualTo(200);
            busy.await(10, TimeUnit.SECONDS);
            assertThat(BackPressureExample.post(device, new Reading())).isEqualTo(200);
            assertThat(BackPressureExample.post(device, new Reading())).isEqualTo(429);
        } finally {
            release.countDown();
            system.stop();
        }
    }

    @Test
    void theMailboxLayoutFragmentGivesTheGatewaysActorsPaddedMailboxes() {
        DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder().build());
        try {
            MailboxLayoutExample.gatewayDispatcher(system);
            assertThat(system.getDispatcher("gateway").orElseThrow().hasPaddedMailboxes()).isTrue();
        } finally {
            system.stop();
        }
    }
}
