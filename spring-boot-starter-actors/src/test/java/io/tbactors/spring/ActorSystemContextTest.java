package io.tbactors.spring;

import static io.tbactors.spring.TestActors.awaitInActor;
import static io.tbactors.spring.TestActors.rootThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.spring.TestActors.DeviceMsg;
import io.tbactors.spring.TestActors.Outcomes;
import io.tbactors.spring.TestActors.RouterCreator;
import io.tbactors.testkit.TbActorSystemExtension;
import io.tbactors.testkit.TbTestActorSystem;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.support.GenericApplicationContext;

class ActorSystemContextTest {

    @RegisterExtension
    final TbActorSystemExtension actors = TbActorSystemExtension.using(
            () -> TbTestActorSystem.builder().mode(TbTestActorSystem.Mode.THREADS).threads(1).build());

    private final GenericApplicationContext applicationContext = new GenericApplicationContext();
    private DefaultTbActorSystem system;

    @BeforeEach
    void useTheTestSystem(DefaultTbActorSystem testSystem) {
        this.system = testSystem;
    }

    @Test
    void aTellBeforeTheRootIsCreatedExplainsWhenItWillBe() {
        ActorSystemContext context = new ActorSystemContext(system, applicationContext, new RouterCreator());

        assertThat(context.hasRootActor()).isTrue();
        assertThat(context.getRootActor()).isNull();
        assertThatThrownBy(() -> context.tell(new DeviceMsg("d", new Outcomes())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not created yet").hasMessageContaining("ApplicationReadyEvent");
    }

    @Test
    void creatingTheRootTwiceKeepsTheFirst() {
        ActorSystemContext context = new ActorSystemContext(system, applicationContext, new RouterCreator());
        context.createRootActor("default");
        var first = context.getRootActor();
        context.createRootActor("default");

        assertThat(context.getRootActor()).isSameAs(first);
        assertThat(system.getActorCount()).isEqualTo(1);
    }

    @Test
    void onceShutdownBeginsEveryTellIsToldStoppedAndCountedEvenWhenTheCallbackThrows() {
        ActorSystemContext context = new ActorSystemContext(system, applicationContext, new RouterCreator());
        context.createRootActor("default");
        context.stopAcceptingMessages();
        Outcomes outcomes = new Outcomes();

        context.tell(new DeviceMsg("d", outcomes));
        context.tellWithHighPriority(new DeviceMsg("d", outcomes));
        context.tell(new TbActorMsg() {
            @Override
            public void onTbActorStopped(TbActorStopReason reason) {
                throw new IllegalStateException("callback failed");
            }
        });

        assertThat(context.isAcceptingMessages()).isFalse();
        assertThat(outcomes.stopped).hasValue(2);
        assertThat(context.getRejectedMessageCount()).isEqualTo(3);
    }

    @Test
    void tryTellLeavesTheMessageWithTheCallerWhenTheRootsMailboxIsFullOrShutdownBegan() throws InterruptedException {
        CountDownLatch blocking = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        system.setMailboxBound("default", TbMailboxBound.rejectNewest(1));
        ActorSystemContext context = new ActorSystemContext(system, applicationContext, rootThat(msg -> {
            blocking.countDown();
            awaitInActor(release);
            ((DeviceMsg) msg).outcomes().processed.incrementAndGet();
        }));
        context.createRootActor("default");
        Outcomes outcomes = new Outcomes();

        assertThat(context.tryTell(new DeviceMsg("d", outcomes))).isTrue();
        blocking.await();
        assertThat(context.tryTell(new DeviceMsg("d", outcomes))).as("fills the bound of one").isTrue();
        assertThat(context.tryTell(new DeviceMsg("d", outcomes))).as("mailbox full").isFalse();
        context.stopAcceptingMessages();
        assertThat(context.tryTell(new DeviceMsg("d", outcomes))).as("shutting down").isFalse();
        release.countDown();

        await().untilAsserted(() -> assertThat(outcomes.processed).hasValue(2));
        assertThat(outcomes.stopped).as("refused messages stay with the caller").hasValue(0);
    }

    @Test
    void prototypeBeansAreLookedUpAgainEachTime() {
        applicationContext.registerBean("sb", StringBuilder.class, () -> new StringBuilder(),
                definition -> definition.setScope(BeanDefinition.SCOPE_PROTOTYPE));
        applicationContext.refresh();
        ActorSystemContext context = new ActorSystemContext(system, applicationContext, (TbRootActorCreator) null);

        assertThat(context.getBean(StringBuilder.class)).isNotSameAs(context.getBean(StringBuilder.class));
    }

    @Test
    void aShutdownThatTimesOutStillTellsEveryWaitingMessageStopped() throws InterruptedException {
        // a stuck actor makes this stop time out on purpose: it gets a stuckSystem of its own, not the checked test stuckSystem
        DefaultTbActorSystem stuckSystem = new DefaultTbActorSystem(TbActorSystemSettings.builder().build());
        stuckSystem.createDispatcher("default", DispatcherKind.SINGLE, 1);
        CountDownLatch blocking = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        TbRootActorCreator stuckRoot = rootThat(msg -> {
            blocking.countDown();
            awaitInActor(never);
            ((DeviceMsg) msg).outcomes().processed.incrementAndGet();
        });
        ActorSystemContext context = new ActorSystemContext(stuckSystem, applicationContext, stuckRoot);
        TbActorsLifecycle lifecycle = new TbActorsLifecycle(stuckSystem, context, "default", Duration.ofMillis(200));
        lifecycle.start();
        Outcomes outcomes = new Outcomes();
        context.tell(new DeviceMsg("d", outcomes));
        blocking.await();
        for (int i = 0; i < 20; i++) {
            context.tell(new DeviceMsg("d", outcomes));
        }

        lifecycle.stop();

        assertThat(lifecycle.isRunning()).isFalse();
        assertThat(stuckSystem.isRunning()).isFalse();
        await().untilAsserted(() -> assertThat(outcomes.total()).isEqualTo(21));
        assertThat(outcomes.stopped.get()).isGreaterThanOrEqualTo(20);
        // after the web server's graceful shutdown (DEFAULT_PHASE - 1024), before the web server stops (- 2048)
        assertThat(lifecycle.getPhase()).isLessThan(Integer.MAX_VALUE - 1024).isGreaterThan(Integer.MAX_VALUE - 2048);
    }
}
