package io.tbactors.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.core.observe.ActorStats;
import io.tbactors.core.observe.DispatcherStats;
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
