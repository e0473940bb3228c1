package io.tbactors.sample.iot.transport.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import lombok.extern.slf4j.Slf4j;

/**
 * Which TCP connections of this machine are still open both ways, from the kernel's tables ({@code /proc/net/tcp} and
 * {@code /proc/net/tcp6} on Linux). The servlet container does not notice a client that closes its connection while an
 * asynchronous request waits with nothing to read or write (Tomcat reads a connection only when a request body is
 * due), so the long polls ask here: a connection the client closed leaves the {@code ESTABLISHED} state at once.
 * Connections are matched by their local and remote ports (a pair another open connection could share only from
 * another client address, which keeps a poll waiting, never ends one early). Where the tables cannot be read (not
 * Linux), {@link #supported()} is false and nothing is ended early.
 */
@Slf4j
final class OpenConnections {

    private static final String ESTABLISHED = "01";

    private final List<Path> tables;
    private final boolean supported;

    OpenConnections() {
        this(List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6")));
    }

    OpenConnections(List<Path> tables) {
        this.tables = tables;
        this.supported = tables.stream().anyMatch(Files::isReadable);
    }

    /** @return whether the kernel's connection tables can be read here */
    boolean supported() {
        return supported;
    }

    /**
     * @param localPort this server's port of a connection
     * @param remotePort the client's port
     * @return the key of that connection in {@link #established()}
     */
    static int key(int localPort, int remotePort) {
        return (localPort << 16) | (remotePort & 0xFFFF);
    }

    /**
     * @return the {@linkplain #key keys} of the connections open both ways now; null when the tables could not be read
     *     (nothing should be ended then)
     */
    Set<Integer> established() {
        Set<Integer> open = new HashSet<>();
        try {
            for (Path table : tables) {
                if (!Files.isReadable(table)) {
                    continue;
                }
                try (BufferedReader lines = Files.newBufferedReader(table, StandardCharsets.US_ASCII)) {
                    lines.readLine();
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        String[] fields = line.trim().split("\\s+");
                        if (fields.length > 3 && ESTABLISHED.equals(fields[3])) {
                            open.add(key(port(fields[1]), port(fields[2])));
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            log.debug("The kernel's connection tables could not be read: {}", unreadable.toString());
            return null;
        }
        return open;
    }

    private static int port(String addressAndPort) {
        return Integer.parseInt(addressAndPort.substring(addressAndPort.lastIndexOf(':') + 1), 16);
    }
}
