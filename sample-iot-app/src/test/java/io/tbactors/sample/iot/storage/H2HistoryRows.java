package io.tbactors.sample.iot.storage;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * History rows written straight to an H2 file with JDBC, nothing of the app in between: what the database alone
 * stores. Shared by {@link H2HistoryCeilingBenchmark} and the end-to-end {@code DeviceApiBenchmark}, which measures it
 * in rounds interleaved with the bodies it compares with it.
 */
public final class H2HistoryRows {

    private static final Logger log = LoggerFactory.getLogger(H2HistoryRows.class);

    /** Devices in each database, the rows spread over them in bodies of 8,000. */
    public static final int DEVICES = 20;

    private H2HistoryRows() {
    }

    /**
     * H2 alone, one writer, in rounds on command: each round appends {@code rows} history rows in batches of 1,000 (a
     * transaction each) to one H2 file with {@code WRITE_DELAY=0} (each commit written, as the app's database), so the
     * table grows from round to round as the app's does. It runs in a JVM of its own with a heap of one size written in
     * full at the start, as the app's JVM in the end-to-end benchmark, so that H2 alone does not pay for fresh heap
     * pages the app never meets (on the virtual machines we measure on the first write to a page costs about 21 us,
     * and in the test's own JVM H2 alone measured 1.4x slower). Its JIT stays warm from round to round, and the
     * database stays open between rounds, as the app's does.
     */
    public static final class InOwnJvm implements AutoCloseable {
        private final Process process;
        private final Writer commands;
        private final BufferedReader answers;
        private final int rowsPerRound;
        private long rowsStored;

        /**
         * @param dir where the rounds' files go
         * @param rows rows a round
         * @param heap the JVM's heap size, as {@code -Xmx} takes it
         */
        public InOwnJvm(Path dir, int rows, String heap) throws IOException {
            this(dir, rows, heap, List.of());
        }

        /**
         * @param dir where the rounds' files go
         * @param rows rows a round
         * @param heap the JVM's heap size, as {@code -Xmx} takes it
         * @param launcher words put before the JVM's command ({@code taskset -c 1}, to keep it on one core), or none
         */
        public InOwnJvm(Path dir, int rows, String heap, List<String> launcher) throws IOException {
            process = new ProcessBuilder(javaCommand(launcher, List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+AlwaysPreTouch"),
                    H2HistoryRows.class, dir.toAbsolutePath().toString(), Integer.toString(rows)))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            rowsPerRound = rows;
        }

        /** @return the rows its table holds: those of the rounds so far (each round checks the count in the JVM) */
        public long rowsStored() {
            return rowsStored;
        }

        /** @return rows/s of one round */
        public double round() throws IOException {
            commands.write("round\n");
            commands.flush();
            String answer;
            // the JVM itself may print on the output too (a flight recording's start, for one): passed on
            while ((answer = answers.readLine()) != null && !answer.startsWith("rows/s ")) {
                log.info("H2 alone JVM: {}", answer);
            }
            if (answer == null) {
                throw new IllegalStateException("the H2 JVM ended without an answer (its errors are in the test's log)");
            }
            rowsStored += rowsPerRound;
            return Double.parseDouble(answer.substring("rows/s ".length()));
        }

        @Override
        public void close() throws InterruptedException, IOException {
            commands.close();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /**
     * @param launcher words put before the JVM's command ({@code taskset -c 1}), or none
     * @param jvmOptions the JVM's options
     * @param main the class to run, found on this JVM's class path
     * @param args its arguments
     * @return the command that runs {@code main} in a JVM of its own, with this JVM's Java and class path
     */
    static List<String> javaCommand(List<String> launcher, List<String> jvmOptions, Class<?> main, String... args) {
        List<String> command = new ArrayList<>(launcher);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * The JVM of {@link InOwnJvm}: for each line {@code round} read from its input, one round appended to its file, its
     * rate printed as {@code rows/s <rate>}; ends at the end of its input.
     *
     * @param args the directory for the files, the rows a round
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int rows = Integer.parseInt(args[1]);
        PrintStream out = System.out;
        // the answers alone on the output: whatever logs goes to the error stream, which the test's log gets
        System.setOut(System.err);
        String url = "jdbc:h2:file:" + dir.resolve("h2-alone-" + UUID.randomUUID()).toAbsolutePath() + ";WRITE_DELAY=0";
        UUID[] devices = createSchemaAndDevices(url);
        String insert = KvTableSql.forDatabase("H2").historyInsertOnly();
        long firstTs = 1_700_000_000_000L;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        // the database stays open between rounds, as the app's does: no round pays for opening it or for the
        // compaction H2 runs when its last connection closes
        try (Connection keepOpen = DriverManager.getConnection(url, "sa", "")) {
            String line;
            for (long stored = 0; (line = in.readLine()) != null; stored += rows, firstTs += rows) {
                if (!line.equals("round")) {
                    throw new IllegalArgumentException("expected 'round', got '" + line + "'");
                }
                long started = System.nanoTime();
                write(url, insert, devices, 0, 1, firstTs, rows, 1000);
                double rate = rows / ((System.nanoTime() - started) / 1e9);
                long count = storedRows(url);
                if (count != stored + rows) {
                    throw new IllegalStateException("H2 holds " + count + " rows after " + (stored + rows) + " in " + url);
                }
                out.println("rows/s " + rate);
                out.flush();
            }
        }
    }

    static long storedRows(String url) throws Exception {
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             var count = connection.createStatement().executeQuery("SELECT COUNT(*) FROM ts_kv")) {
            count.next();
            return count.getLong(1);
        }
    }

    public static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    public static double spread(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElseThrow()
                / values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    static UUID[] createSchemaAndDevices(String url) throws Exception {
        Flyway.configure().dataSource(url, "sa", "").load().migrate();
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             PreparedStatement insert = connection.prepareStatement("INSERT INTO device (id, tenant_id, name, type, "
                     + "access_token, created_time, version) VALUES (?, ?, ?, 't', ?, 0, 0)")) {
            UUID tenant = UUID.fromString("5a3c1e80-0000-4000-8000-000000000001");
            UUID[] devices = new UUID[DEVICES];
            for (int d = 0; d < DEVICES; d++) {
                devices[d] = UUID.randomUUID();
                insert.setObject(1, devices[d]);
                insert.setObject(2, tenant);
                insert.setString(3, "d" + d);
                insert.setString(4, "token-" + d);
                insert.executeUpdate();
            }
            return devices;
        }
    }

    static Void write(String url, String statement, UUID[] devices, int writer, int writers, long firstTs,
            int rows, int batch) throws Exception {
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             PreparedStatement write = connection.prepareStatement(statement)) {
            connection.setAutoCommit(false);
            long ts = firstTs;
            int mine = DEVICES / writers;
            for (int written = 0; written < rows; written += batch) {
                for (int i = 0; i < batch; i++) {
                    // bodies of 8,000 readings, device after device, each reading one row at a later time
                    UUID device = devices[writer + writers * (((written + i) / 8000) % mine)];
                    write.setObject(1, device);
                    write.setString(2, "b");
                    write.setLong(3, ts++);
                    write.setNull(4, Types.BOOLEAN);
                    write.setLong(5, 1);
                    write.setNull(6, Types.DOUBLE);
                    write.setNull(7, Types.VARCHAR);
                    write.setNull(8, Types.VARCHAR);
                    write.addBatch();
                }
                write.executeBatch();
                connection.commit();
            }
        }
        return null;
    }
}
