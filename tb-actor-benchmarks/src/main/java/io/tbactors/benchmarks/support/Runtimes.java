package io.tbactors.benchmarks.support;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.dispatch.DispatcherKind;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.ActorSystem;

/**
 * Builds the two runtimes under test with the same shape: one fork-join dispatcher of {@link #dispatcherThreads()}
 * threads, throughput 5 messages per turn, logging off.
 */
public final class Runtimes {

    /** Name of the dispatcher every benchmark actor of ours runs on. */
    public static final String DISPATCHER = "bench";

    /** Messages an actor processes per turn, on both runtimes (ThingsBoard's default). */
    public static final int THROUGHPUT = 5;

    /** System property that overrides the dispatcher size; forks inherit it through the run options. */
    public static final String THREADS_PROPERTY = "tbactors.bench.threads";

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private Runtimes() {
    }

    /** @return dispatcher threads on both runtimes: the machine's cores, at least 2 */
    public static int dispatcherThreads() {
        return Integer.getInteger(THREADS_PROPERTY, Math.max(2, Runtime.getRuntime().availableProcessors()));
    }

    /** @return our actor system with the benchmark dispatcher registered */
    public static DefaultTbActorSystem newTbSystem() {
        TbActorSystemSettings settings = TbActorSystemSettings.builder()
                .actorThroughput(THROUGHPUT)
                .schedulerPoolSize(1)
                .maxActorInitAttempts(1)
                .shutdownTimeout(STOP_TIMEOUT)
                .build();
        DefaultTbActorSystem system = new DefaultTbActorSystem(settings);
        system.createDispatcher(DISPATCHER, DispatcherKind.FORK_JOIN, dispatcherThreads());
        return system;
    }

    /**
     * The Pekko settings that make the comparison fair: the default dispatcher, which runs the benchmark actors,
     * is a fork-join pool of exactly {@link #dispatcherThreads()} threads with throughput {@link #THROUGHPUT},
     * and nothing is logged.
     *
     * @return the configuration
     */
    public static Config pekkoConfig() {
        int threads = dispatcherThreads();
        String text = String.join("\n",
                "pekko {",
                "  loglevel = \"OFF\"",
                "  stdout-loglevel = \"OFF\"",
                "  log-dead-letters = off",
                "  log-dead-letters-during-shutdown = off",
                "  coordinated-shutdown.run-by-jvm-shutdown-hook = off",
                "  actor.default-dispatcher {",
                "    type = Dispatcher",
                "    executor = \"fork-join-executor\"",
                "    throughput = " + THROUGHPUT,
                "    fork-join-executor {",
                "      parallelism-min = " + threads,
                "      parallelism-max = " + threads,
                "      parallelism-factor = 1.0",
                "    }",
                "  }",
                "}");
        return ConfigFactory.parseString(text).withFallback(ConfigFactory.defaultReference());
    }

    /**
     * @param name the system's name
     * @return a Pekko actor system configured by {@link #pekkoConfig()}
     */
    public static ActorSystem newPekkoSystem(String name) {
        return ActorSystem.create(name, pekkoConfig());
    }

    /** @param system our system to stop; waits for it */
    public static void stop(DefaultTbActorSystem system) {
        if (system != null) {
            system.stop(STOP_TIMEOUT);
        }
    }

    /** @param system the Pekko system to terminate; waits for it */
    public static void stop(ActorSystem system) {
        if (system == null) {
            return;
        }
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Pekko system " + system.name() + " did not terminate", e);
        }
    }
}
