package io.tbactors.benchmarks.support;

import java.util.Comparator;
import java.util.Map;

/**
 * What every thread of the JVM is doing, for the message of a round that did not finish: a parked worker with turns
 * waiting tells a lost wake-up from a worker still running something.
 */
public final class ThreadStates {

    /** Frames of each thread's stack given, from the top. */
    static final int FRAMES = 8;

    private ThreadStates() {
    }

    /** @return one block per live thread: its name, its state and the top of its stack */
    public static String dump() {
        StringBuilder out = new StringBuilder("threads:");
        Map<Thread, StackTraceElement[]> stacks = Thread.getAllStackTraces();
        stacks.keySet().stream().sorted(Comparator.comparing(Thread::getName)).forEach(thread -> {
            out.append(System.lineSeparator()).append("  \"").append(thread.getName()).append("\" ")
                    .append(thread.getState());
            StackTraceElement[] stack = stacks.get(thread);
            for (int i = 0; i < Math.min(FRAMES, stack.length); i++) {
                out.append(System.lineSeparator()).append("    at ").append(stack[i]);
            }
        });
        return out.toString();
    }
}
