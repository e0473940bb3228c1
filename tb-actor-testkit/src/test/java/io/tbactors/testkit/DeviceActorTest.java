package io.tbactors.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbTimer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A device actor keeps its last reading, reports each to its parent and reports itself offline after five silent minutes. */
@ExtendWith(TbActorSystemExtension.class)
class DeviceActorTest {

    record Reading(double value) implements TbActorMsg {
    }

    record GetStatus(TbActorRef replyTo) implements TbActorMsg {
    }

    record Status(double last) implements TbActorMsg {
    }

    record ReadingStored() implements TbActorMsg {
    }

    record DeviceOffline() implements TbActorMsg {
    }

    record CheckOffline() implements TbActorMsg {
    }

    /** Keeps the last reading, reports each to its parent, and reports itself offline after five silent minutes. */
    static final class DeviceActor extends AbstractTbActor {
        private double last;
        private TbTimer offline;

        @Override
        public void init(TbActorCtx ctx) throws TbActorException {
            super.init(ctx);
            offline = ctx.scheduleOnce(new CheckOffline(), Duration.ofMinutes(5));
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof Reading reading) {
                last = reading.value();
                offline.cancel();
                offline = ctx.scheduleOnce(new CheckOffline(), Duration.ofMinutes(5));
                ctx.getParentRef().tell(new ReadingStored());
            } else if (msg instanceof GetStatus get) {
                get.replyTo().tell(new Status(last));
            } else if (msg instanceof CheckOffline) {
                ctx.getParentRef().tell(new DeviceOffline());
            } else {
                return false;
            }
            return true;
        }
    }

    @Test
    void answersAStatusRequestAndReportsReadingsToItsParent(TbTestActorSystem actors) {
        TbActorProbe parent = actors.probes().spawn("tenant");
        TbActorRef device = actors.createChildActor(TbActorCreators.of("device-1", DeviceActor::new), parent.getActorId());
        TbActorProbe replies = actors.probes().create("replies");

        device.tell(new Reading(21.5));
        device.tell(new GetStatus(replies));

        assertThat(replies.expectMessage(Status.class, Duration.ofSeconds(1)).last()).isEqualTo(21.5);
        parent.expectMessage(ReadingStored.class, Duration.ofSeconds(1));
        parent.expectNoMessage(Duration.ofMillis(50));
    }

    @Test
    void goesOfflineAfterFiveMinutesWithoutReadings(TbTestActorSystem actors) {
        TbActorProbe parent = actors.probes().spawn("tenant");
        actors.createChildActor(TbActorCreators.of("device-1", DeviceActor::new), parent.getActorId());

        actors.advance(Duration.ofMinutes(5));

        parent.expectMessage(DeviceOffline.class, Duration.ZERO);
    }

    @Test
    void aReadingPostponesTheOfflineReport(TbTestActorSystem actors) {
        TbActorProbe parent = actors.probes().spawn("tenant");
        TbActorRef device = actors.createChildActor(TbActorCreators.of("device-1", DeviceActor::new), parent.getActorId());

        actors.advance(Duration.ofMinutes(4));
        device.tell(new Reading(1));
        parent.expectMessage(ReadingStored.class, Duration.ZERO);
        actors.advance(Duration.ofMinutes(4));
        parent.expectNoMessage(Duration.ZERO);
        actors.advance(Duration.ofMinutes(1));

        parent.expectMessage(DeviceOffline.class, Duration.ZERO);
    }
}
