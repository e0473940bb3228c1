package io.tbactors.kafka.it;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A cluster node in a process of its own, for tests that stop it with SIGTERM or kill it with SIGKILL: it stores its
 * readings in a journal file (appending to it when it exists) and runs until stopped. With
 * {@code test.ownership-log=<file>} among its properties it logs its ownership changes there too.
 */
public final class KillableNodeMain {

    /** Property naming the file where the node logs its ownership changes ({@link OwnershipLog}), if any. */
    static final String OWNERSHIP_LOG = "test.ownership-log=";

    private KillableNodeMain() {
    }

    /**
     * Starts a node in a process of its own, with the test's class path.
     *
     * @param brokers the broker list
     * @param topic the test's topic
     * @param journal where the node stores its readings
     * @param name the node's name
     * @param output where the process's output is appended
     * @param properties more properties, {@code key=value}
     * @return the process
     * @throws IOException when the process cannot start
     */
    static Process start(String brokers, String topic, Path journal, String name, Path output, String... properties)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), KillableNodeMain.class.getName(), brokers, topic,
                journal.toString(), name));
        command.addAll(List.of(properties));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile())).start();
    }

    /**
     * @param args the broker list, the test's topic, the journal file, the node's name, then more properties
     *     ({@code key=value}), if any
     * @throws InterruptedException never: the process is killed while it waits
     */
    public static void main(String[] args) throws InterruptedException {
        List<String> properties = new ArrayList<>(List.of("test.processing-delay=2ms"));
        properties.addAll(Arrays.asList(args).subList(4, args.length));
        ClusterNode node = ClusterNode.start(args[3], args[0], args[1], new ReadingStore(Path.of(args[2])),
                properties.toArray(String[]::new));
        properties.stream().filter(property -> property.startsWith(OWNERSHIP_LOG)).findFirst()
                .ifPresent(property -> OwnershipLog.follow(node.member(), Path.of(property.substring(OWNERSHIP_LOG.length()))));
        Thread.currentThread().join();
    }
}
