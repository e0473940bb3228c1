package io.tbactors.sample.iot.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the kernel's connection tables: only connections open both ways count, IPv4 and IPv6 alike. */
class OpenConnectionsTest {

    @TempDir
    Path dir;

    @Test
    void onlyEstablishedConnectionsAreOpenAndTheyAreKeyedByTheirPorts() throws IOException {
        Path tcp = Files.writeString(dir.resolve("tcp"), """
                  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
                   0: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1
                   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 2 1
                   2: 0100007F:1F90 0100007F:C351 08 00000000:00000000 00:00000000 00000000     0        0 3 1
                """);
        Path tcp6 = Files.writeString(dir.resolve("tcp6"), """
                  sl  local_address                         remote_address                        st tx_queue
                   0: 0000000000000000FFFF00000100007F:1F90 0000000000000000FFFF00000100007F:C352 01 00000000:00000000
                """);
        OpenConnections connections = new OpenConnections(List.of(tcp, tcp6, dir.resolve("missing")));

        assertThat(connections.supported()).isTrue();
        assertThat(connections.established()).containsExactlyInAnyOrder(OpenConnections.key(8080, 50000),
                OpenConnections.key(8080, 50002));
    }

    @Test
    void withoutTablesNothingIsSupported() {
        assertThat(new OpenConnections(List.of(dir.resolve("none"))).supported()).isFalse();
    }
}
