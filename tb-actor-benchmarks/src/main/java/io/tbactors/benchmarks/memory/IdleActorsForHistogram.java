package io.tbactors.benchmarks.memory;

/**
 * Holds idle actors of ours in a JVM for a class histogram, to see what an idle actor is made of:
 * {@code java -cp benchmarks.jar io.tbactors.benchmarks.memory.IdleActorsForHistogram 200000 [told]}, then
 * {@code jcmd <pid> GC.class_histogram}. The actors are the memory benchmark's ({@link TbIdleActors}); with
 * {@code told} each has processed one message first. Ends on Enter.
 */
public final class IdleActorsForHistogram {

    private IdleActorsForHistogram() {
    }

    /** @param args the number of actors, then optionally {@code told} @throws Exception when reading stdin fails */
    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        boolean told = args.length > 1 && "told".equals(args[1]);
        try (TbIdleActors actors = new TbIdleActors()) {
            actors.create(count);
            if (told) {
                actors.tellEachOnce(count);
            }
            System.out.println(count + " idle actors" + (told ? ", each told one message," : "") + " in pid "
                    + ProcessHandle.current().pid() + "; jcmd <pid> GC.class_histogram, then Enter to end");
            System.in.read();
        }
    }
}
