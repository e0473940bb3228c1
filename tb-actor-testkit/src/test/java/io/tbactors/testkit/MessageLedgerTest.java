package io.tbactors.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.observe.TbMessageFateObserver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class MessageLedgerTest {

    record Note(String text) implements TbActorMsg {
    }

    static final class Quiet extends AbstractTbActor {
        @Override
        public boolean process(TbActorMsg msg) {
            return true;
        }
    }

    private final TbActorId device = new TbStringActorId("device-1");

    @Test
    void aMessageIsUnsettledFromItsTellUntilItsFateAndTellsOfOneInstanceAddUp() {
        MessageLedger ledger = new MessageLedger(null);
        Note note = new Note("hello");
        ledger.onTold(device, note);
        ledger.onTold(device, note);
        ledger.onTold(new TbStringActorId("device-2"), note);
        ledger.onProcessed(new TbStringActorId("device-2"), note);

        assertThat(ledger.unsettled()).singleElement().hasToString("Note[text=hello] to device-1 (told 2 times)");

        ledger.onNotProcessed(device, note, TbActorStopReason.STOPPED);
        ledger.onHandedBack(device, note);
        assertThat(ledger.unsettled()).isEmpty();
        assertThat(ledger.settledTwice()).isEmpty();
    }

    @Test
    void aFateWithNoTellToMatchIsReportedAsSettledTwice() {
        MessageLedger ledger = new MessageLedger(null);
        Note note = new Note("once");
        ledger.onTold(device, note);
        ledger.onProcessed(device, note);
        ledger.onWithdrawn(device, note);

        assertThat(ledger.settledTwice()).containsExactly("Note to device-1 (withdrawn)");
    }

    @Test
    void equalMessagesThatAreDistinctInstancesAreCountedApart() {
        MessageLedger ledger = new MessageLedger(null);
        ledger.onTold(device, new Note("same"));
        ledger.onProcessed(device, new Note("same"));

        assertThat(ledger.unsettled()).hasSize(1);
        assertThat(ledger.settledTwice()).hasSize(1);
    }

    @Test
    void aLongMessageIsCutInTheReport() {
        LostMessage lost = new LostMessage(device, new Note("x".repeat(500)), 1);

        assertThat(lost.toString()).hasSizeLessThan(200).endsWith("... to device-1");
    }

    @Test
    void theObserverFromTheTestsOwnSettingsStillSeesEveryEvent() {
        List<String> seen = new CopyOnWriteArrayList<>();
        TbMessageFateObserver own = new TbMessageFateObserver() {
            @Override
            public void onTold(TbActorId target, TbActorMsg msg) {
                seen.add("told");
            }

            @Override
            public void onProcessed(TbActorId target, TbActorMsg msg) {
                seen.add("processed");
            }

            @Override
            public void onNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason) {
                seen.add("not processed " + reason);
            }

            @Override
            public void onHandedBack(TbActorId target, TbActorMsg msg) {
                seen.add("handed back");
            }

            @Override
            public void onWithdrawn(TbActorId target, TbActorMsg msg) {
                seen.add("withdrawn");
            }
        };
        MessageLedger ledger = new MessageLedger(own);
        Note note = new Note("n");
        ledger.onTold(device, note);
        ledger.onProcessed(device, note);
        ledger.onNotProcessed(device, note, TbActorStopReason.STOPPED);
        ledger.onHandedBack(device, note);
        ledger.onWithdrawn(device, note);

        assertThat(seen).containsExactly("told", "processed", "not processed STOPPED", "handed back", "withdrawn");

        seen.clear();
        try (TbTestActorSystem actors = TbTestActorSystem.builder().settings(settings -> settings.messageFateObserver(own)).build()) {
            actors.createRootActor(TbActorCreators.of("quiet", Quiet::new)).tell(new Note("through the system"));
        }
        assertThat(seen).containsExactly("told", "processed");
    }

    @Test
    void queuedMessagesAreUnsettledUntilTheirTurnRuns() {
        try (TbTestActorSystem actors = TbTestActorSystem.manual()) {
            TbActorRef quiet = actors.createRootActor(TbActorCreators.of("quiet", Quiet::new));
            quiet.tell(new Note("waiting"));

            assertThat(actors.unsettledMessages()).extracting(LostMessage::message).containsExactly(new Note("waiting"));
            actors.runUntilIdle();
            assertThat(actors.unsettledMessages()).isEmpty();
        }
    }
}
