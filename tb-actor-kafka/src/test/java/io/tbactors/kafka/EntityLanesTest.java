package io.tbactors.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntityLanesTest {

    private final List<String> events = new ArrayList<>();
    private final EntityLanes lanes = new EntityLanes();

    private EntityLanes.Task task(String name) {
        return new EntityLanes.Task() {
            @Override
            public void start() {
                events.add("start " + name);
            }

            @Override
            public void drop() {
                events.add("drop " + name);
            }
        };
    }

    @Test
    void anEntitysNextRecordStartsOnlyWhenTheOneBeforeIsDoneWhileOtherEntitiesGoOn() {
        lanes.submit("a", task("a1"));
        lanes.submit("a", task("a2"));
        lanes.submit("b", task("b1"));
        lanes.submit("a", task("a3"));
        assertThat(events).containsExactly("start a1", "start b1");
        assertThat(lanes.waitingCount()).isEqualTo(2);

        lanes.next("a");
        lanes.next("b");
        lanes.next("a");
        lanes.next("a");

        assertThat(events).containsExactly("start a1", "start b1", "start a2", "start a3");
        assertThat(lanes.waitingCount()).isZero();
        lanes.submit("a", task("a4"));
        assertThat(events).as("an idle entity starts at once").endsWith("start a4");
    }

    @Test
    void droppingAnEntityTellsTheRecordsBehindItsHeadAndFreesTheEntity() {
        lanes.submit("a", task("a1"));
        lanes.submit("a", task("a2"));
        lanes.submit("a", task("a3"));

        lanes.drop("a");
        lanes.submit("a", task("a4"));

        assertThat(events).containsExactly("start a1", "drop a2", "drop a3", "start a4");
    }

    @Test
    void aClosedLaneSetStartsNothingMore() {
        lanes.submit("a", task("a1"));
        lanes.submit("a", task("a2"));
        lanes.close();

        lanes.next("a");
        lanes.submit("b", task("b1"));

        assertThat(events).containsExactly("start a1");
        assertThat(lanes.waitingCount()).isZero();
    }
}
