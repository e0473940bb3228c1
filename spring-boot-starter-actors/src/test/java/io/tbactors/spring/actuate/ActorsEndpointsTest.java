package io.tbactors.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorNotRegisteredException;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.observe.ActorFailure;
import io.tbactors.core.observe.ActorStats;
import io.tbactors.core.observe.DispatcherStats;
import io.tbactors.testkit.TbActorCreators;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ActorsEndpointsTest {

    @Test
    void theDispatchersEndpointListsEachDispatcherAndFindsOneByName() {
        try (BlockingActorSystem actors = new BlockingActorSystem()) {
            TbActorsDispatchersEndpoint endpoint = new TbActorsDispatchersEndpoint(actors.system);

            assertThat(endpoint.dispatchers().running()).isTrue();
            assertThat(endpoint.dispatchers().dispatchers()).extracting(DispatcherStats::name).containsExactly("main", "side");
            DispatcherStats main = endpoint.dispatcher("main");
            assertThat(main.kind()).isEqualTo("fork-join");
            assertThat(main.poolSize()).isEqualTo(2);
            assertThat(main.actors()).isEqualTo(1);
            assertThat(endpoint.dispatcher("missing")).isNull();
        }
    }

    @Test
    void theActorsEndpointCountsByTypeAndDispatcherAndListsTheLargestMailboxes() throws InterruptedException {
        try (BlockingActorSystem actors = new BlockingActorSystem()) {
            actors.buildBacklog(4);
            TbActorsEndpoint endpoint = new TbActorsEndpoint(actors.system, actors.context);

            TbActorsEndpoint.ActorsDescriptor overview = endpoint.actors(null);
            assertThat(overview.count()).isEqualTo(2);
            assertThat(overview.pendingMessages()).isEqualTo(4);
            assertThat(overview.rootActor()).isNull();
            assertThat(overview.acceptingMessages()).isTrue();
            assertThat(overview.byType()).isEqualTo(Map.of("BlockingActor", 2));
            assertThat(overview.byDispatcher()).isEqualTo(Map.of("main", Map.of("BlockingActor", 1), "side", Map.of("BlockingActor", 1)));
            assertThat(overview.largestMailboxes()).singleElement().satisfies(actor -> {
                assertThat(actor.id()).isEqualTo(BlockingActorSystem.BLOCKED.toString());
                assertThat(actor.pendingMessages()).isEqualTo(4);
            });
            assertThat(endpoint.actors(0).largestMailboxes()).isEmpty();
        }
    }

    @Test
    void theActorsEndpointListsTheLastFailuresOfActorsWithWhatTheRuntimeDid() {
        try (BlockingActorSystem actors = new BlockingActorSystem()) {
            TbActorRef failing = actors.system.createRootActor("side", TbActorCreators.of(new TbStringActorId("failing"),
                    () -> new AbstractTbActor() {
                        @Override
                        public boolean process(TbActorMsg msg) {
                            throw new IllegalStateException("sensor offline");
                        }
                    }));
            failing.tell(new TbActorMsg() { });
            TbActorsEndpoint endpoint = new TbActorsEndpoint(actors.system, actors.context);

            await().until(() -> endpoint.actors(null).failures() == 1);
            assertThat(endpoint.actors(null).recentFailures()).singleElement().satisfies(failure -> {
                assertThat(failure.actorId()).isEqualTo("failing");
                assertThat(failure.phase()).isEqualTo(ActorFailure.Phase.PROCESS);
                assertThat(failure.outcome()).isEqualTo(ActorFailure.Outcome.RESUMED);
                assertThat(failure.exceptionClass()).isEqualTo(IllegalStateException.class.getName());
                assertThat(failure.message()).isEqualTo("sensor offline");
                assertThat(failure.time()).isNotNull();
            });
        }
    }

    @Test
    void theEventsEndpointListsRecentFailuresDeadLettersAndStopsByReason() {
        try (BlockingActorSystem actors = new BlockingActorSystem()) {
            TbActorsEventsEndpoint endpoint = new TbActorsEventsEndpoint(actors.system);
            TbActorRef failing = actors.system.createRootActor("side", TbActorCreators.of(new TbStringActorId("failing"),
                    () -> new AbstractTbActor() {
                        @Override
                        public boolean process(TbActorMsg msg) {
                            throw new IllegalStateException("sensor offline");
                        }
                    }));
            failing.tell(new TbActorMsg() { });
            await().until(() -> endpoint.events().failures() == 1);
            actors.system.stop(new TbStringActorId("failing"));
            try {
                actors.system.tell(new TbStringActorId("nobody"), new TbActorMsg() { });
            } catch (TbActorNotRegisteredException expected) {
                // a dead letter
            }

            await().until(() -> endpoint.events().stopsByReason().getOrDefault(TbActorStopReason.STOPPED, 0L) == 1L);
            TbActorsEventsEndpoint.EventsDescriptor events = endpoint.events();
            assertThat(events.failures()).isEqualTo(1);
            assertThat(events.recentFailures()).singleElement().extracting(ActorFailure::message).isEqualTo("sensor offline");
            assertThat(events.deadLetters()).isEqualTo(1);
            assertThat(events.recentDeadLetters()).singleElement().satisfies(letter -> {
                assertThat(letter.target()).isEqualTo("nobody");
                assertThat(letter.reason()).isEqualTo("NOT_REGISTERED");
                assertThat(letter.time()).isNotNull();
            });
            endpoint.destroy();
            try {
                actors.system.tell(new TbStringActorId("nobody"), new TbActorMsg() { });
            } catch (TbActorNotRegisteredException expected) {
                // no longer recorded
            }
            assertThat(endpoint.events().deadLetters()).as("unsubscribed when destroyed").isEqualTo(1);
        }
    }

    @Test
    void theActorsEndpointFindsOneActorByItsIdEvenWithSlashes() {
        try (BlockingActorSystem actors = new BlockingActorSystem()) {
            TbActorsEndpoint endpoint = new TbActorsEndpoint(actors.system, actors.context);

            ActorStats idle = endpoint.actor(new String[] {"tenant", "acme"});
            assertThat(idle.id()).isEqualTo("tenant/acme");
            assertThat(idle.dispatcher()).isEqualTo("side");
            assertThat(endpoint.actor(new String[] {BlockingActorSystem.BLOCKED.toString()}).entityType()).isEqualTo("DEVICE");
            assertThat(endpoint.actor(new String[] {"nobody"})).isNull();
        }
    }
}
