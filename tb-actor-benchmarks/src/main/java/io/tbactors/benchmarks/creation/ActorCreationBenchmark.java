package io.tbactors.benchmarks.creation;

import io.tbactors.benchmarks.support.Impl;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Actor creation under one parent: each sample is the time from telling a fresh parent to create
 * {@value #CHILDREN} children until every child has started; the report turns the median into actors per second.
 * Stopping the batch happens outside the measured time.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-Xmn1g", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
public class ActorCreationBenchmark {

    /** Children created per sample. */
    public static final int CHILDREN = 20_000;

    /** Which implementation: ours or Pekko. */
    @Param({Impl.TB, Impl.PEKKO})
    public String impl;

    private ChildCreation creation;

    /** Starts the runtime and names the children once, so naming is not measured on either side. */
    @Setup(Level.Trial)
    public void setUpTrial() {
        String[] names = new String[CHILDREN];
        for (int i = 0; i < names.length; i++) {
            names[i] = "child-" + i;
        }
        creation = switch (impl) {
            case Impl.TB -> new TbChildCreation(names);
            case Impl.PEKKO -> new PekkoChildCreation(names);
            default -> throw Impl.unknown(impl);
        };
    }

    /** A fresh parent for each batch. */
    @Setup(Level.Invocation)
    public void setUpBatch() {
        creation.prepare();
    }

    /** One batch of children, until all started. */
    @Benchmark
    public void createChildren() {
        creation.createChildren(CHILDREN);
    }

    /** Stops the batch before the next one. */
    @TearDown(Level.Invocation)
    public void tearDownBatch() {
        creation.cleanUp();
    }

    /** Stops the runtime. */
    @TearDown(Level.Trial)
    public void tearDownTrial() {
        if (creation != null) {
            creation.close();
        }
    }
}
