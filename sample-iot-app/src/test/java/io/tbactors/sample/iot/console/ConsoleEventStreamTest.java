package io.tbactors.sample.iot.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.mockito.Mockito;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.json.JsonMapper;

class ConsoleEventStreamTest {

    private final ConsoleProperties properties = new ConsoleProperties();

    private final ConsoleSnapshots snapshots = Mockito.mock(ConsoleSnapshots.class);

    ConsoleEventStreamTest() {
        // only the looks that opening a stream asks for run during a test
        properties.setRefreshInterval(Duration.ofMinutes(1));
    }

    @Test
    void stopCompletesEveryOpenStreamSoThatNoneHoldsTheWebServersGracefulShutdown() {
        ConsoleEventStream stream = new ConsoleEventStream(snapshots, properties, JsonMapper.builder().build());
        stream.start();
        SseEmitter first = stream.open();
        SseEmitter second = stream.open();
        assertThat(stream.connectedClients()).isEqualTo(2);

        stream.stop();

        assertThat(stream.isRunning()).isFalse();
        assertThat(stream.connectedClients()).isZero();
        assertThatThrownBy(() -> first.send("late")).isInstanceOf(IllegalStateException.class).hasMessageContaining("completed");
        assertThatThrownBy(() -> second.send("late")).isInstanceOf(IllegalStateException.class).hasMessageContaining("completed");
    }

    @Test
    void aStreamOpenedAfterTheStopIsCompletedAtOnceAndTheBrowserRetriesLater() {
        ConsoleEventStream stream = new ConsoleEventStream(snapshots, properties, JsonMapper.builder().build());
        stream.start();
        stream.stop();

        SseEmitter late = stream.open();

        assertThat(stream.connectedClients()).isZero();
        assertThatThrownBy(() -> late.send("late")).isInstanceOf(IllegalStateException.class).hasMessageContaining("completed");
    }

    @Test
    void stopsFirstOfAllLifecyclesBeforeTheWebServer() {
        ConsoleEventStream stream = new ConsoleEventStream(snapshots, properties, JsonMapper.builder().build());

        assertThat(stream.getPhase()).isEqualTo(Integer.MAX_VALUE);
    }
}
