package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.observe.TbMessageContextPropagator;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MessageContextPropagationTest {

    private static final ThreadLocal<String> CONTEXT = new ThreadLocal<>();

    record Msg(int n) implements TbActorMsg {
    }

    /** Carries the CONTEXT thread local, counting the scopes it opens and closes. */
    static final class ThreadLocalPropagator implements TbMessageContextPropagator {
        final AtomicInteger closed = new AtomicInteger();

        @Override
        public Object capture() {
            return CONTEXT.get();
        }

        @Override
        public Scope restore(Object context) {
            String previous = CONTEXT.get();
            CONTEXT.set((String) context);
            return () -> {
                CONTEXT.set(previous);
                closed.incrementAndGet();
            };
        }
    }

    @Test
    void eachMessageIsProcessedWithTheContextOfTheThreadThatToldIt() {
        ThreadLocalPropagator propagator = new ThreadLocalPropagator();
        DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder()
                .contextPropagator(propagator).recordWaitTime(true).build());
        try {
            system.createDispatcher("d", DispatcherKind.SINGLE, 1);
            List<String> seen = new CopyOnWriteArrayList<>();
            TbActorRef actor = system.createRootActor("d", creator(new TbStringActorId("a"),
                    () -> new TestActors.FnActor(msg -> seen.add(((Msg) msg).n() + "=" + CONTEXT.get()))));
            for (int i = 0; i < 3; i++) {
                CONTEXT.set("trace-" + i);
                actor.tell(new Msg(i));
            }
            CONTEXT.remove();
            actor.tell(new Msg(3));

            await().untilAsserted(() -> assertThat(seen).containsExactly("0=trace-0", "1=trace-1", "2=trace-2", "3=null"));
            assertThat(propagator.closed).hasValue(3);
        } finally {
            system.stop(Duration.ofSeconds(5));
        }
    }
}
