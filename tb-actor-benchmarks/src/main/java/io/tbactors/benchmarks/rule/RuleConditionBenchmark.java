package io.tbactors.benchmarks.rule;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgCallback;
import io.tbactors.rule.spel.MsgExpression;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One rule-node condition evaluated on one reading, as the sample app's alarm nodes evaluate theirs on every reading
 * of every body: the time and, with {@code -prof gc}, the bytes an evaluation allocates ({@code gc.alloc.rate.norm}).
 * Not part of the report run; run it with {@code java -cp tb-actor-benchmarks/target/benchmarks.jar
 * org.openjdk.jmh.Main RuleConditionBenchmark -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-Xmn1g", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
public class RuleConditionBenchmark {

    /**
     * The condition: the high-temperature alarm's of the sample app's root chain ({@code data}), one that reads the
     * message's type and originator ({@code envelope}).
     */
    @Param({"data", "envelope"})
    public String condition;

    private MsgExpression expression;
    private TbMsg reading;

    /** Parses the condition and makes the reading. */
    @Setup
    public void setUp() {
        expression = MsgExpression.parse(switch (condition) {
            case "data" -> "data.temperature != null && data.temperature > 30";
            case "envelope" -> "msgType == 'POST_TELEMETRY_REQUEST' && originator != null";
            default -> throw new IllegalArgumentException("condition must be data or envelope, got " + condition);
        });
        reading = TbMsg.of("POST_TELEMETRY_REQUEST", UUID.randomUUID(), Map.of("temperature", 21.5),
                Map.of("deviceName", "sensor-1", "deviceType", "default"), TbMsgCallback.NONE);
    }

    /** @return the condition's value on the reading */
    @Benchmark
    public boolean evaluate() {
        return expression.test(reading);
    }
}
