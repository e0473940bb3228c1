package io.tbactors.kafka.it;

import java.nio.file.Path;

/**
 * A cluster node in a process of its own, for tests that kill it with SIGKILL: it stores its readings in a journal
 * file and runs until killed.
 */
public final class KillableNodeMain {

    private KillableNodeMain() {
    }

    /**
     * @param args the broker list, the test's topic, the journal file, the node's name
     * @throws InterruptedException never: the process is killed while it waits
     */
    public static void main(String[] args) throws InterruptedException {
        ClusterNode.start(args[3], args[0], args[1], new ReadingStore(Path.of(args[2])), "test.processing-delay=2ms");
        Thread.currentThread().join();
    }
}
