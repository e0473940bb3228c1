package io.tbactors.sample.iot.e2e;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.tbactors.sample.iot.SampleIotApplication;

/**
 * The application in a JVM of its own, started from the test class path, for what only a real process shows: a stop
 * by SIGTERM, the heap under load. Its output goes to a log file under {@code target}.
 */
final class AppProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final int mqttPort;
    private final Path log;

    private AppProcess(Process process, int port, int mqttPort, Path log) {
        this.process = process;
        this.port = port;
        this.mqttPort = mqttPort;
        this.log = log;
    }

    /**
     * Starts the application from the test class path, compiled by C1 only (it starts sooner; for tests, not for
     * figures), and waits until its health answers 200.
     *
     * @param databaseUrl the JDBC URL it stores into
     * @param maxHeap the JVM's {@code -Xmx}, e.g. {@code 384m}
     * @param extraArgs more {@code --name=value} arguments
     * @return the running application
     * @throws IOException when the process cannot start
     */
    static AppProcess start(String databaseUrl, String maxHeap, String... extraArgs) throws IOException {
        return start(freePort(), databaseUrl, maxHeap, extraArgs);
    }

    /**
     * Starts the application on a given port (to start it again where a client expects it) and waits for its health.
     *
     * @param port the HTTP port
     * @param databaseUrl the JDBC URL it stores into
     * @param maxHeap the JVM's {@code -Xmx}
     * @param extraArgs more {@code --name=value} arguments
     * @return the running application
     * @throws IOException when the process cannot start
     */
    static AppProcess start(int port, String databaseUrl, String maxHeap, String... extraArgs) throws IOException {
        return launch(List.of("-Xmx" + maxHeap, "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                SampleIotApplication.class.getName()), port, databaseUrl, extraArgs);
    }

    /**
     * Starts the application from the test class path with the JVM's default compilers, as it runs in production:
     * for measurements. Its heap has one size and is written in full at the start ({@code -Xms} = {@code -Xmx},
     * {@code -XX:+AlwaysPreTouch}), as a server's is after its first minutes: the first write to a fresh page costs
     * tens of microseconds on a virtual machine, which a run of a few minutes would otherwise measure (BENCHMARKS.md,
     * "Every heap page written before the first round").
     *
     * @param databaseUrl the JDBC URL it stores into
     * @param maxHeap the JVM's {@code -Xmx}
     * @param jvmArgs more JVM options (a flight recording, for one), after the heap's
     * @param extraArgs more {@code --name=value} arguments
     * @return the running application
     * @throws IOException when the process cannot start
     */
    static AppProcess startForMeasurement(String databaseUrl, String maxHeap, List<String> jvmArgs, String... extraArgs)
            throws IOException {
        List<String> jvm = new ArrayList<>(List.of("-Xms" + maxHeap, "-Xmx" + maxHeap, "-XX:+AlwaysPreTouch"));
        jvm.addAll(jvmArgs);
        jvm.addAll(List.of("-cp", System.getProperty("java.class.path"), SampleIotApplication.class.getName()));
        return launch(jvm, freePort(), databaseUrl, extraArgs);
    }

    /**
     * Starts the packaged application ({@code java -jar}) with the JVM's default compilers.
     *
     * @param jar the executable jar
     * @param databaseUrl the JDBC URL it stores into
     * @param maxHeap the JVM's {@code -Xmx}
     * @param extraArgs more {@code --name=value} arguments
     * @return the running application
     * @throws IOException when the process cannot start
     */
    static AppProcess startJar(Path jar, String databaseUrl, String maxHeap, String... extraArgs) throws IOException {
        return launch(List.of("-Xmx" + maxHeap, "-jar", jar.toString()), freePort(), databaseUrl, extraArgs);
    }

    private static AppProcess launch(List<String> jvm, int port, String databaseUrl, String... extraArgs) throws IOException {
        Path log = Path.of("target", "app-process-" + port + ".log");
        Files.createDirectories(log.getParent());
        int mqttPort = freePort();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvm);
        command.addAll(List.of("--server.port=" + port, "--spring.datasource.url=" + databaseUrl,
                "--sample.simulator.enabled=false", "--sample.admin.password=" + ApiClient.PASSWORD,
                "--sample.mqtt.port=" + mqttPort));
        command.addAll(List.of(extraArgs));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .directory(new File(".")).start();
        AppProcess app = new AppProcess(process, port, mqttPort, log);
        ApiClient api = app.api();
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> !process.isAlive() || api.getWithoutCredentials("/actuator/health").status() == 200);
        if (!process.isAlive()) {
            throw new IllegalStateException("The application ended at start-up; see " + log);
        }
        return app;
    }

    /** @return whether the process is still running */
    boolean isAlive() {
        return process.isAlive();
    }

    /** @return its HTTP port */
    int port() {
        return port;
    }

    /** @return its MQTT port */
    int mqttPort() {
        return mqttPort;
    }

    /** @return a client for its HTTP port */
    ApiClient api() {
        return new ApiClient(port);
    }

    /** @return where its output goes */
    Path log() {
        return log;
    }

    /**
     * Sends SIGTERM and waits for the JVM to end.
     *
     * @param timeout the longest wait
     * @return whether it ended in time
     * @throws InterruptedException when interrupted
     */
    boolean terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        return process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /**
     * Sends SIGKILL and waits for the JVM to end: no shutdown hook runs, nothing is drained or closed.
     *
     * @param timeout the longest wait
     * @return whether it ended in time
     * @throws InterruptedException when interrupted
     */
    boolean kill(Duration timeout) throws InterruptedException {
        process.destroyForcibly();
        return process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** Kills it if it is still running. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
