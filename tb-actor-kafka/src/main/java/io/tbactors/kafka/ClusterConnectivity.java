package io.tbactors.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import lombok.extern.slf4j.Slf4j;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.common.Node;
import org.springframework.context.SmartLifecycle;

/**
 * Asks Kafka, every {@code connectivity-check-interval}, whether a broker answers and whether the group's coordinator
 * is known: a consumer whose broker is gone just polls nothing, so the member's own state cannot tell. The answer
 * feeds the health component and is told to a listener after every check (readiness); changes are logged.
 */
@Slf4j
public class ClusterConnectivity implements SmartLifecycle {

    /**
     * What the last check found.
     *
     * @param brokerReachable whether a broker answered
     * @param coordinatorReachable whether the group's coordinator is known
     * @param problem what failed, or null
     * @param checkedAt when the check ended
     */
    public record Status(boolean brokerReachable, boolean coordinatorReachable, String problem, Instant checkedAt) {

        /** @return whether both the broker and the group's coordinator answered */
        public boolean isReachable() {
            return brokerReachable && coordinatorReachable;
        }
    }

    private final Map<String, Object> adminConfig;
    private final String groupId;
    private final String node;
    private final Duration interval;
    private final Consumer<Status> onCheck;
    private volatile Status status;
    private volatile boolean running;
    private ScheduledExecutorService checker;
    private Admin admin;

    /**
     * @param adminConfig the admin client's settings
     * @param groupId the consumer group whose coordinator is looked for
     * @param node this node's name, the prefix of the log lines
     * @param interval time between two checks; each check waits at most this long
     * @param onCheck told the status after every check
     */
    ClusterConnectivity(Map<String, Object> adminConfig, String groupId, String node, Duration interval, Consumer<Status> onCheck) {
        this.adminConfig = adminConfig;
        this.groupId = groupId;
        this.node = node;
        this.interval = interval;
        this.onCheck = onCheck;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        admin = Admin.create(adminConfig);
        checker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tb-cluster-connectivity");
            thread.setDaemon(true);
            return thread;
        });
        checker.scheduleWithFixedDelay(this::checkSafely, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        running = true;
    }

    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        checker.shutdownNow();
        admin.close(Duration.ofSeconds(1));
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return KafkaClusterMember.PHASE;
    }

    /** @return the last check's result, or null before the first one */
    public Status getStatus() {
        return status;
    }

    private void checkSafely() {
        try {
            Status previous = status;
            Status current = check();
            status = current;
            if (previous == null || previous.isReachable() != current.isReachable()) {
                if (current.isReachable()) {
                    log.info("[{}] Kafka reachable again: broker and coordinator of group '{}' answer", node, groupId);
                } else {
                    log.warn("[{}] Kafka not reachable: {}", node, current.problem());
                }
            }
            onCheck.accept(current);
        } catch (RuntimeException e) {
            log.warn("[{}] Checking Kafka's reachability failed", node, e);
        }
    }

    private Status check() {
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, interval.toMillis());
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs)).nodes().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            interruptIfInterrupted(e);
            return new Status(false, false, "no broker answered within " + interval + ": " + e, Instant.now());
        }
        try {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(groupId),
                    new DescribeConsumerGroupsOptions().timeoutMs(timeoutMs)).describedGroups().get(groupId)
                    .get(timeoutMs, TimeUnit.MILLISECONDS);
            Node coordinator = group.coordinator();
            if (coordinator == null || coordinator.isEmpty()) {
                return new Status(true, false, "group '" + groupId + "' has no coordinator", Instant.now());
            }
        } catch (Exception e) {
            interruptIfInterrupted(e);
            return new Status(true, false, "the coordinator of group '" + groupId + "' did not answer within " + interval + ": " + e,
                    Instant.now());
        }
        return new Status(true, true, null, Instant.now());
    }

    private static void interruptIfInterrupted(Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
    }
}
