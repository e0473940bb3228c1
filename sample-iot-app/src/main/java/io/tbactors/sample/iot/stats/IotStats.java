package io.tbactors.sample.iot.stats;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.rule.RuleEngineListener;
import lombok.extern.slf4j.Slf4j;
import org.springframework.stereotype.Component;

/**
 * Message counters of the application, also published as meters {@code sample.iot.device.messages} (tag
 * {@code result}) and {@code sample.iot.rule.engine.messages} (tag {@code outcome}).
 */
@Slf4j
@Component
public class IotStats implements MeterBinder, RuleEngineListener {

    private static final long LOST_REPORT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final LongAdder deviceAccepted = new LongAdder();
    private final LongAdder deviceRejected = new LongAdder();
    private final LongAdder processed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder lost = new LongAdder();
    private final LongAdder nodeFailures = new LongAdder();
    private final Map<String, LongAdder> rpcOutcomes = new ConcurrentHashMap<>();
    private final LongAdder rpcLateResponses = new LongAdder();
    private final Map<String, LongAdder> rpcClusterFailures = new ConcurrentHashMap<>();

    /** What can fail on a command's way between nodes (the {@code cluster} profile), as counted by {@link #rpcClusterFailure}. */
    public static final List<String> RPC_CLUSTER_FAILURES = List.of("not-sent", "push-failed", "session-gone",
            "outcome-not-returned", "no-outcome");
    private final Map<String, LongAdder> clientRpcOutcomes = new ConcurrentHashMap<>();
    private final LongAdder clientRpcLateReplies = new LongAdder();
    private final LongAdder lostSinceReport = new LongAdder();
    private final AtomicLong lastLostReportNanos = new AtomicLong(System.nanoTime() - LOST_REPORT_INTERVAL_NANOS);

    /** A device message was taken into the rule engine by its device actor (the request gets 200 once stored). */
    public void deviceAccepted() {
        deviceAccepted.increment();
    }

    /** A device message was refused or failed: bounds, a full mailbox, a chain failure, a stop or the reply timeout. */
    public void deviceRejected() {
        deviceRejected.increment();
    }

    /** A message went through its rule chain. */
    public void ruleEngineProcessed() {
        processed.increment();
    }

    /** A message went through its rule chain, but a node failed with no {@code Failure} connection. */
    public void ruleEngineFailed() {
        failed.increment();
    }

    /**
     * A message in the rule engine was dropped by a stopping actor: counted, and logged at most once per 10 seconds
     * with the count since the previous line.
     *
     * @param reason why the actor stopped
     */
    public void ruleEngineLost(TbActorStopReason reason) {
        lost.increment();
        lostSinceReport.increment();
        long now = System.nanoTime();
        long last = lastLostReportNanos.get();
        // one line per interval at most, with the count since the last line: a stop that drops a million messages
        // writes a handful of lines, not a million
        if (now - last >= LOST_REPORT_INTERVAL_NANOS && lastLostReportNanos.compareAndSet(last, now)) {
            log.warn("{} rule engine message(s) dropped since the last report: their actor stopped (last reason {}); "
                    + "{} dropped in all", lostSinceReport.sumThenReset(), reason, lost.sum());
        }
    }

    /** A rule node threw while processing; the message went on along {@code Failure}. */
    public void nodeFailure() {
        nodeFailures.increment();
    }

    /**
     * A server-side RPC request ended.
     *
     * @param status how ({@code SUCCESSFUL}, {@code DELIVERED}, {@code TIMEOUT}, {@code FAILED})
     * @param refused whether it failed because the device's queue of waiting requests was full (counted as
     *     {@code REFUSED})
     */
    public void rpcFinished(String status, boolean refused) {
        rpcOutcomes.computeIfAbsent(refused ? "REFUSED" : status, key -> new LongAdder()).increment();
    }

    /** A device answered an RPC request that no longer waited (it had timed out): the answer was dropped. */
    public void rpcLateResponse() {
        rpcLateResponses.increment();
    }

    /**
     * Something failed on a command's way between nodes (the {@code cluster} profile); the caller logged it.
     *
     * @param kind one of {@link #RPC_CLUSTER_FAILURES}: the request or a subscription was not taken by the cluster
     *     ({@code not-sent}); a push to the node holding the session was not written ({@code push-failed}); a push
     *     reached that node after the session closed ({@code session-gone}); the outcome could not be sent back to the
     *     caller's node ({@code outcome-not-returned}); the caller's node heard no outcome within the request's timeout
     *     and its margin ({@code no-outcome})
     */
    public void rpcClusterFailure(String kind) {
        rpcClusterFailures.computeIfAbsent(kind, key -> new LongAdder()).increment();
    }

    /**
     * @param kind see {@link #rpcClusterFailure}
     * @return how many failed so
     */
    public long getRpcClusterFailures(String kind) {
        LongAdder count = rpcClusterFailures.get(kind);
        return count == null ? 0 : count.sum();
    }

    /**
     * A device's own RPC request (client-side RPC) ended.
     *
     * @param status how ({@code SUCCESSFUL}: the chain answered; {@code TIMEOUT}: nothing answered in time;
     *     {@code FAILED})
     * @param refused whether it failed because the device already had its most requests waiting ({@code REFUSED})
     */
    public void clientRpcFinished(String status, boolean refused) {
        clientRpcOutcomes.computeIfAbsent(refused ? "REFUSED" : status, key -> new LongAdder()).increment();
    }

    /** The chain answered a device's RPC request that no longer waited (timed out, or answered already): dropped. */
    public void clientRpcLateReply() {
        clientRpcLateReplies.increment();
    }

    /**
     * @param status an outcome, as given to {@link #clientRpcFinished}, or {@code REFUSED}
     * @return the devices' RPC requests that ended so
     */
    public long getClientRpcOutcomes(String status) {
        LongAdder count = clientRpcOutcomes.get(status);
        return count == null ? 0 : count.sum();
    }

    /** @return the chain's answers dropped because their device's request no longer waited */
    public long getClientRpcLateReplies() {
        return clientRpcLateReplies.sum();
    }

    /**
     * @param status an outcome, as given to {@link #rpcFinished}, or {@code REFUSED}
     * @return the requests that ended so
     */
    public long getRpcOutcomes(String status) {
        LongAdder count = rpcOutcomes.get(status);
        return count == null ? 0 : count.sum();
    }

    /** @return the device answers dropped because their request no longer waited */
    public long getRpcLateResponses() {
        return rpcLateResponses.sum();
    }

    @Override
    public void msgProcessed() {
        ruleEngineProcessed();
    }

    @Override
    public void msgFailed() {
        ruleEngineFailed();
    }

    @Override
    public void msgLost(TbActorStopReason reason) {
        ruleEngineLost(reason);
    }

    @Override
    public void nodeFailed() {
        nodeFailure();
    }

    /** @return device messages accepted so far */
    public long getDeviceAccepted() {
        return deviceAccepted.sum();
    }

    /** @return device messages refused so far */
    public long getDeviceRejected() {
        return deviceRejected.sum();
    }

    /** @return rule engine messages processed so far */
    public long getProcessed() {
        return processed.sum();
    }

    /** @return rule engine messages that failed so far */
    public long getFailed() {
        return failed.sum();
    }

    /** @return rule engine messages lost so far */
    public long getLost() {
        return lost.sum();
    }

    /** @return rule node failures so far */
    public long getNodeFailures() {
        return nodeFailures.sum();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "sample.iot.device.messages", "result", "accepted", deviceAccepted, "Device API messages by result");
        counter(registry, "sample.iot.device.messages", "result", "rejected", deviceRejected, "Device API messages by result");
        counter(registry, "sample.iot.rule.engine.messages", "outcome", "processed", processed, "Rule engine messages by outcome");
        counter(registry, "sample.iot.rule.engine.messages", "outcome", "failed", failed, "Rule engine messages by outcome");
        counter(registry, "sample.iot.rule.engine.messages", "outcome", "lost", lost, "Rule engine messages by outcome");
        counter(registry, "sample.iot.rule.node.failures", "node", "any", nodeFailures, "Rule node failures routed on Failure");
        for (String status : List.of("SUCCESSFUL", "DELIVERED", "TIMEOUT", "FAILED", "REFUSED")) {
            counter(registry, "sample.iot.rpc.requests", "status", status.toLowerCase(Locale.ROOT),
                    rpcOutcomes.computeIfAbsent(status, key -> new LongAdder()), "Server-side RPC requests by outcome");
        }
        for (String kind : RPC_CLUSTER_FAILURES) {
            counter(registry, "sample.iot.rpc.cluster.failures", "kind", kind, rpcClusterFailures.computeIfAbsent(kind,
                    key -> new LongAdder()), "Commands to devices that failed on their way between nodes (cluster profile)");
        }
        FunctionCounter.builder("sample.iot.rpc.late.responses", rpcLateResponses, LongAdder::sum)
                .description("Device RPC answers dropped because their request had timed out").register(registry);
        for (String status : List.of("SUCCESSFUL", "TIMEOUT", "FAILED", "REFUSED")) {
            counter(registry, "sample.iot.rpc.client.requests", "status", status.toLowerCase(Locale.ROOT),
                    clientRpcOutcomes.computeIfAbsent(status, key -> new LongAdder()),
                    "Devices' own RPC requests (client-side RPC) by outcome");
        }
        FunctionCounter.builder("sample.iot.rpc.client.late.replies", clientRpcLateReplies, LongAdder::sum)
                .description("Rule chain answers to device RPC requests that no longer waited, dropped").register(registry);
    }

    private static void counter(MeterRegistry registry, String name, String tag, String value, LongAdder adder, String description) {
        FunctionCounter.builder(name, adder, LongAdder::sum).tag(tag, value).description(description).register(registry);
    }
}
