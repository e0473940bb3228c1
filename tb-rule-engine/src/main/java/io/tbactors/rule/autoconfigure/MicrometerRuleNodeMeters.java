package io.tbactors.rule.autoconfigure;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tbactors.rule.stats.RuleNodeMeters;

/**
 * Per-node meters, tagged {@code chain}, {@code node} and {@code type}: {@code tb.rule.node.messages.in},
 * {@code tb.rule.node.messages.out} (also by {@code relation}), {@code tb.rule.node.failures} and the timer
 * {@code tb.rule.node.processing} (from a message's call to its callback).
 */
final class MicrometerRuleNodeMeters implements RuleNodeMeters {

    private final MeterRegistry registry;

    MicrometerRuleNodeMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public NodeMeters forNode(UUID chainId, String nodeId, String type) {
        Tags tags = Tags.of("chain", chainId.toString(), "node", nodeId, "type", type);
        Counter in = Counter.builder("tb.rule.node.messages.in").description("Messages into a rule node").tags(tags).register(registry);
        Counter failures = Counter.builder("tb.rule.node.failures").description("Messages a rule node failed on").tags(tags)
                .register(registry);
        Timer processing = Timer.builder("tb.rule.node.processing").description("From a message's call to its callback")
                .tags(tags).register(registry);
        Map<String, Counter> out = new ConcurrentHashMap<>();
        return new NodeMeters() {
            @Override
            public void in() {
                in.increment();
            }

            @Override
            public void out(String relation) {
                // looked up first: the registering lambda captures the tags, and this runs for every message
                Counter counter = out.get(relation);
                if (counter == null) {
                    counter = out.computeIfAbsent(relation, r -> Counter.builder("tb.rule.node.messages.out")
                            .description("Messages out of a rule node by relation").tags(tags).tag("relation", r)
                            .register(registry));
                }
                counter.increment();
            }

            @Override
            public void failure() {
                failures.increment();
            }

            @Override
            public void processed(long nanos) {
                processing.record(nanos, TimeUnit.NANOSECONDS);
            }
        };
    }
}
