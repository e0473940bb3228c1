package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.tbactors.api.InitFailureStrategy;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.observe.ActorFailure;
import io.tbactors.core.observe.TbActorSystemListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A failure of an actor's own code is never silent: logged at WARN (rate-limited per type), counted, listed, told. */
class FailureVisibilityTest {

    private final List<String> told = new CopyOnWriteArrayList<>();
    private final DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder()
            .rateLimitedLogInterval(Duration.ofHours(1)).build(), new TbActorSystemListener() {
                @Override
                public void onActorFailure(TbActorId actorId, String dispatcher, String actorType, ActorFailure.Phase phase,
                                           ActorFailure.Outcome outcome, Throwable cause) {
                    told.add(actorId + " " + dispatcher + " " + actorType + " " + phase.tag() + " " + outcome.tag() + " "
                            + cause.getClass().getSimpleName());
                }
            });
    private final Logger logger = (Logger) LoggerFactory.getLogger(FailureReports.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    FailureVisibilityTest() {
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
        logged.start();
        logger.addAppender(logged);
        // the runtime's own logging is off in tests, but for this logger, whose WARN lines are what is tested
        logger.setLevel(Level.WARN);
        logger.setAdditive(false);
    }

    @AfterEach
    void tearDown() {
        logger.detachAppender(logged);
        logger.setLevel(null);
        logger.setAdditive(true);
        system.stop();
    }

    record Make() implements TbActorMsg {
    }

    /** Creates a child on a dispatcher nobody registered: the mistake a new user makes. */
    static final class Parent extends io.tbactors.api.AbstractTbActor {
        @Override
        public boolean process(TbActorMsg msg) {
            TbActorId child = new TbStringActorId("child");
            ctx.getOrCreateChildActor(child, () -> "counters", () -> TestActors.counting(child));
            return true;
        }
    }

    @Test
    void aProcessFailureUnderTheDefaultResumeIsLoggedAtWarnCountedListedAndToldToTheListener() {
        TbActorId id = new TbStringActorId("parent");
        TbActorRef parent = system.createRootActor("d", creator(id, Parent::new));
        parent.tell(new Make());

        await().until(() -> system.getActorFailureCount() == 1);
        ActorFailure failure = system.getRecentFailures().get(0);
        assertThat(failure.actorId()).isEqualTo("parent");
        assertThat(failure.actorType()).isEqualTo("Parent");
        assertThat(failure.phase()).isEqualTo(ActorFailure.Phase.PROCESS);
        assertThat(failure.outcome()).isEqualTo(ActorFailure.Outcome.RESUMED);
        assertThat(failure.exceptionClass()).isEqualTo(IllegalArgumentException.class.getName());
        assertThat(failure.message()).contains("Dispatcher 'counters' is not registered");
        assertThat(told).containsExactly("parent d Parent process resumed IllegalArgumentException");
        assertThat(logged.list).singleElement().satisfies(event -> {
            assertThat(event.getLevel()).isEqualTo(Level.WARN);
            assertThat(event.getFormattedMessage()).contains("[parent]", "Parent", "process", "Make", "resumes");
            assertThat(event.getThrowableProxy().getMessage()).contains("Dispatcher 'counters' is not registered");
        });
    }

    @Test
    void failuresOfOneActorTypeAreLoggedOncePerIntervalWhileEveryOneIsCountedAndListed() {
        TbActorRef parent = system.createRootActor("d", creator(new TbStringActorId("parent"), Parent::new));
        for (int i = 0; i < 50; i++) {
            parent.tell(new Make());
        }
        await().until(() -> system.getActorFailureCount() == 50);
        assertThat(logged.list).hasSize(1);
        assertThat(system.getRecentFailures()).hasSize(FailureReports.KEPT);
        assertThat(told).hasSize(50);
    }

    @Test
    void initFailuresAreReportedWithTheirRetriesAndTheGivingUp() {
        TbActorId id = new TbStringActorId("broken");
        system.createRootActor("d", creator(id, () -> new ProbeActor(new ProbeActor.Record()) {
            @Override
            void onInit(TbActorCtx ctx, int attempt) throws TbActorException {
                throw new TbActorException("no database", null);
            }

            @Override
            public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
                return attempt < 3 ? InitFailureStrategy.retryImmediately() : InitFailureStrategy.stop();
            }
        }));
        await().until(() -> system.getActorFailureCount() == 3);
        assertThat(system.getRecentFailures()).extracting(ActorFailure::phase, ActorFailure::outcome).containsExactly(
                org.assertj.core.groups.Tuple.tuple(ActorFailure.Phase.INIT, ActorFailure.Outcome.RETRYING),
                org.assertj.core.groups.Tuple.tuple(ActorFailure.Phase.INIT, ActorFailure.Outcome.RETRYING),
                org.assertj.core.groups.Tuple.tuple(ActorFailure.Phase.INIT, ActorFailure.Outcome.GAVE_UP));
        assertThat(logged.list).singleElement().extracting(ILoggingEvent::getLevel).isEqualTo(Level.WARN);
    }
}
