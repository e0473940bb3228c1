package io.tbactors.kafka.it;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A cluster node in a process of its own, for tests that stop it with SIGTERM or kill it with SIGKILL: it stores its
 * readings in a journal file (appending to it when it exists) and runs until stopped.
 */
public final class KillableNodeMain {

    private KillableNodeMain() {
    }

    /**
     * @param args the broker list, the test's topic, the journal file, the node's name, then more properties
     *     ({@code key=value}), if any
     * @throws InterruptedException never: the process is killed while it waits
     */
    public static void main(String[] args) throws InterruptedException {
        List<String> properties = new ArrayList<>(List.of("test.processing-delay=2ms"));
        properties.addAll(Arrays.asList(args).subList(4, args.length));
        ClusterNode.start(args[3], args[0], args[1], new ReadingStore(Path.of(args[2])), properties.toArray(String[]::new));
        Thread.currentThread().join();
    }
}
