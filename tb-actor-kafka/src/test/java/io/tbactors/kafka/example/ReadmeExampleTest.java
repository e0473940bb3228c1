package io.tbactors.kafka.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.kafka.TbEntityMsg;
import io.tbactors.kafka.TbOwnershipEpoch;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The README's router and device actors, run: a current epoch stores, a stale one leaves the record to the new owner. */
class ReadmeExampleTest {

    record Reading(double value) implements TbActorMsg {
    }

    private final DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder().build());
    private final ReadingRepository repository = new ReadingRepository();
    private final TbActorRef router;

    ReadmeExampleTest() {
        system.createDispatcher("app", DispatcherKind.SINGLE, 1);
        system.createDispatcher("devices", DispatcherKind.SINGLE, 1);
        router = system.createRootActor("app", TbActorCreator.of(new TbStringActorId("router"), () -> new RouterActor(repository)));
    }

    @AfterEach
    void stop() {
        system.stop();
    }

    @Test
    void aMessageOfACurrentEpochIsStoredAndOneOfAStaleEpochIsLeftToTheNewOwner() {
        AtomicInteger processed = new AtomicInteger();
        AtomicInteger notProcessed = new AtomicInteger();
        AtomicBoolean owned = new AtomicBoolean(true);
        TbOwnershipEpoch epoch = TbOwnershipEpoch.of(3, 7, owned::get);
        UUID device = UUID.randomUUID();

        router.tell(TbEntityMsg.of("DEVICE", device, new Reading(21.5), epoch, processed::incrementAndGet, notProcessed::incrementAndGet));
        await().until(() -> processed.get() == 1);
        assertThat(repository.saved()).containsExactly(new Reading(21.5));

        owned.set(false);
        router.tell(TbEntityMsg.of("DEVICE", device, new Reading(22.0), epoch, processed::incrementAndGet, notProcessed::incrementAndGet));
        await().until(() -> notProcessed.get() == 1);
        assertThat(repository.saved()).containsExactly(new Reading(21.5));
        assertThat(processed).hasValue(1);
    }

    @Test
    void aWriteWhoseEpochIsStillCurrentHereIsRefusedWhenALaterOwnerOfThePartitionWroteFirst() {
        AtomicInteger processed = new AtomicInteger();
        AtomicInteger notProcessed = new AtomicInteger();
        UUID device = UUID.randomUUID();
        // this node took partition 3 in the group's generation 4; a node that took it in generation 6 wrote first
        assertThat(repository.save(3, 6, new Reading(23.0))).isTrue();
        TbOwnershipEpoch old = TbOwnershipEpoch.of(3, 1, 4, () -> true);

        router.tell(TbEntityMsg.of("DEVICE", device, new Reading(21.5), old, processed::incrementAndGet, notProcessed::incrementAndGet));
        await().until(() -> notProcessed.get() == 1);
        assertThat(repository.saved()).containsExactly(new Reading(23.0));
        assertThat(processed).hasValue(0);

        TbOwnershipEpoch later = TbOwnershipEpoch.of(3, 2, 7, () -> true);
        router.tell(TbEntityMsg.of("DEVICE", device, new Reading(22.0), later, processed::incrementAndGet, notProcessed::incrementAndGet));
        await().until(() -> processed.get() == 1);
        assertThat(repository.saved()).containsExactly(new Reading(23.0), new Reading(22.0));
    }
}
