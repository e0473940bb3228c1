package io.tbactors.sample.iot.console;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.search.Search;

/**
 * Messages per second of each dispatcher, from the count of the starter's {@code tb.actors.messages.processing} timers (both outcomes): the
 * difference between two looks over the time between them. A look sooner than {@link #MIN_SPAN_NANOS} after the
 * previous one answers the previous rates, so several readers do not turn the rate into noise.
 */
final class DispatcherRates {

    static final String PROCESSING = "tb.actors.messages.processing";
    static final long MIN_SPAN_NANOS = 500_000_000L;

    private final MeterRegistry registry;
    private final LongSupplier nanoClock;
    private Map<String, Double> lastCounts = Map.of();
    private Map<String, Double> rates = Map.of();
    private long lastNanos;

    DispatcherRates(MeterRegistry registry, LongSupplier nanoClock) {
        this.registry = registry;
        this.nanoClock = nanoClock;
        this.lastNanos = nanoClock.getAsLong();
    }

    /**
     * @return dispatcher name to messages per second since the previous look (absent before the second look)
     */
    synchronized Map<String, Double> rates() {
        long now = nanoClock.getAsLong();
        if (now - lastNanos < MIN_SPAN_NANOS && !lastCounts.isEmpty()) {
            return rates;
        }
        Map<String, Double> counts = counts();
        Map<String, Double> next = new HashMap<>();
        double seconds = (now - lastNanos) / 1e9;
        counts.forEach((dispatcher, count) -> {
            Double before = lastCounts.get(dispatcher);
            if (before != null && seconds > 0) {
                next.put(dispatcher, Math.max(0, count - before) / seconds);
            }
        });
        lastCounts = counts;
        lastNanos = now;
        rates = next;
        return rates;
    }

    private Map<String, Double> counts() {
        Map<String, Double> counts = new HashMap<>();
        for (Meter meter : Search.in(registry).name(PROCESSING).meters()) {
            String dispatcher = meter.getId().getTag("dispatcher");
            double count = meter instanceof Timer timer ? timer.count()
                    : meter instanceof FunctionTimer functionTimer ? functionTimer.count() : Double.NaN;
            if (dispatcher != null && !Double.isNaN(count)) {
                counts.merge(dispatcher, count, Double::sum);
            }
        }
        return counts;
    }
}
