package io.tbactors.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class ThingsBoardSystemDoubleTest {

    /** A test double with exactly the methods of ThingsBoard's actor system interface: it must keep compiling. */
    static final class ThingsBoardOnlySystem implements TbActorSystem {
        final List<TbActorId> children = new ArrayList<>();
        final List<TbActorId> told = new ArrayList<>();

        @Override
        public ScheduledExecutorService getScheduler() {
            return null;
        }

        @Override
        public void createDispatcher(String dispatcherId, ExecutorService executor) {
        }

        @Override
        public void destroyDispatcher(String dispatcherId) {
        }

        @Override
        public TbActorRef getActor(TbActorId actorId) {
            return null;
        }

        @Override
        public TbActorRef createRootActor(String dispatcherId, TbActorCreator creator) {
            return null;
        }

        @Override
        public TbActorRef createChildActor(String dispatcherId, TbActorCreator creator, TbActorId parent) {
            return null;
        }

        @Override
        public void tell(TbActorId target, TbActorMsg actorMsg) {
        }

        @Override
        public void tellWithHighPriority(TbActorId target, TbActorMsg actorMsg) {
        }

        @Override
        public void stop(TbActorRef actorRef) {
        }

        @Override
        public void stop(TbActorId actorId) {
        }

        @Override
        public void stop() {
        }

        @Override
        public void broadcastToChildren(TbActorId parent, TbActorMsg msg) {
        }

        @Override
        public void broadcastToChildren(TbActorId parent, TbActorMsg msg, boolean highPriority) {
        }

        @Override
        public void broadcastToChildren(TbActorId parent, Predicate<TbActorId> childFilter, TbActorMsg msg) {
            for (TbActorId child : children) {
                if (childFilter.test(child)) {
                    told.add(child);
                }
            }
        }

        @Override
        public List<TbActorId> filterChildren(TbActorId parent, Predicate<TbActorId> childFilter) {
            return List.of();
        }
    }

    @Test
    void broadcastByTypeIsADefaultThatSelectsChildrenThroughTheFilteredBroadcast() {
        ThingsBoardOnlySystem system = new ThingsBoardOnlySystem();
        TbEntityActorId device = new TbEntityActorId("DEVICE", UUID.randomUUID());
        TbEntityActorId asset = new TbEntityActorId("ASSET", UUID.randomUUID());
        system.children.add(device);
        system.children.add(asset);
        system.children.add(new TbStringActorId("plain"));

        system.broadcastToChildrenByType(new TbStringActorId("parent"), new TbActorMsg() { }, "DEVICE");

        assertThat(system.told).containsExactly(device);
        assertThatThrownBy(() -> system.broadcastToChildrenByType(new TbStringActorId("p"), new TbActorMsg() { }, null))
                .hasMessageContaining("entityType");
    }
}
