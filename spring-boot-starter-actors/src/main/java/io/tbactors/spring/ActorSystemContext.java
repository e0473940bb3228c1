package io.tbactors.spring;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorStoppedException;
import io.tbactors.api.TbActorSystem;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;
import lombok.extern.slf4j.Slf4j;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationContext;

/**
 * The bridge between the application's services and its actors, as in ThingsBoard: services tell the root actor
 * through it, and actors (which are not beans: there can be millions) reach the application's beans through it.
 *
 * <p>Messages told while the application shuts down are never dropped silently: each one is told
 * {@link TbActorStopReason#STOPPED} through {@link TbActorMsg#onTbActorStopped} and counted.
 *
 * <p>It works with any {@link TbActorSystem}. When the system also offers {@link TbActorSystemIntrospection} (the
 * default one does), the context knows whether the system still runs and checks the root's dispatcher up front;
 * {@link #ask} needs a {@link DefaultTbActorSystem}.
 */
@Slf4j
public class ActorSystemContext {

    private final TbActorSystem actorSystem;
    private final @Nullable TbActorSystemIntrospection introspection;
    private final ApplicationContext applicationContext;
    private final Supplier<@Nullable TbRootActorCreator> rootActorDeclaration;
    private volatile @Nullable TbRootActorCreator rootActorCreator;
    private volatile boolean rootActorResolved;
    private final Map<Class<?>, Object> singletonBeans = new ConcurrentHashMap<>();
    private final LongAdder rejectedMessages = new LongAdder();
    private volatile @Nullable TbActorRef rootActor;
    private volatile boolean shuttingDown;

    /**
     * @param applicationContext the application's context, for {@link #getBean(Class)}
     * @param rootActorCreator the application's root actor declaration, or null when it declares none
     */
    public ActorSystemContext(TbActorSystem actorSystem, ApplicationContext applicationContext,
                              @Nullable TbRootActorCreator rootActorCreator) {
        this(actorSystem, applicationContext, () -> rootActorCreator);
    }

    /**
     * Looks the root actor's declaration up only when it is first needed, so that the declaring bean may itself
     * depend on this context.
     *
     * @param applicationContext the application's context, for {@link #getBean(Class)}
     * @param rootActorCreators the application's root actor declarations: none, or exactly one
     */
    public ActorSystemContext(TbActorSystem actorSystem, ApplicationContext applicationContext,
                              ObjectProvider<TbRootActorCreator> rootActorCreators) {
        this(actorSystem, applicationContext, () -> single(rootActorCreators, applicationContext));
    }

    private ActorSystemContext(TbActorSystem actorSystem, ApplicationContext applicationContext,
                               Supplier<@Nullable TbRootActorCreator> rootActorDeclaration) {
        this.actorSystem = Objects.requireNonNull(actorSystem, "actorSystem must not be null");
        this.introspection = actorSystem instanceof TbActorSystemIntrospection view ? view : null;
        this.applicationContext = Objects.requireNonNull(applicationContext, "applicationContext must not be null");
        this.rootActorDeclaration = rootActorDeclaration;
    }

    private static @Nullable TbRootActorCreator single(ObjectProvider<TbRootActorCreator> rootActorCreators,
                                             ApplicationContext applicationContext) {
        List<TbRootActorCreator> roots = rootActorCreators.orderedStream().toList();
        if (roots.size() > 1) {
            throw new IllegalStateException("Found " + roots.size() + " root actor declarations "
                    + List.of(applicationContext.getBeanNamesForType(TbRootActorCreator.class))
                    + ": declare exactly one bean of type " + TbRootActorCreator.class.getName());
        }
        return roots.isEmpty() ? null : roots.get(0);
    }

    private @Nullable TbRootActorCreator rootActorCreator() {
        if (!rootActorResolved) {
            synchronized (this) {
                if (!rootActorResolved) {
                    rootActorCreator = rootActorDeclaration.get();
                    rootActorResolved = true;
                }
            }
        }
        return rootActorCreator;
    }

    /**
     * Tells the root actor a message with normal priority.
     *
     * @param msg the message
     * @throws IllegalStateException when the application declares no root actor, or before it is created
     */
    public void tell(TbActorMsg msg) {
        deliver(msg, false);
    }

    /**
     * Tells the root actor a message with high priority: it is processed before the normal messages waiting.
     *
     * @param msg the message
     * @throws IllegalStateException when the application declares no root actor, or before it is created
     */
    public void tellWithHighPriority(TbActorMsg msg) {
        deliver(msg, true);
    }

    /**
     * Tells the root actor a message unless its mailbox is bounded and full, or the application is shutting down;
     * then the message stays with the caller (its {@code onTbActorStopped} is not called), so a producer can slow
     * down or answer "busy".
     *
     * @param msg the message, normal priority
     * @return whether the message was accepted
     * @throws IllegalStateException when the application declares no root actor, or before it is created
     */
    public boolean tryTell(TbActorMsg msg) {
        Objects.requireNonNull(msg, "msg must not be null");
        requireRootDeclared();
        return isAcceptingMessages() && requireRootCreated().tryTell(msg);
    }

    /**
     * Asks the root actor and returns its reply (see {@link DefaultTbActorSystem#ask}).
     *
     * @param request builds the request around the reply-to reference the actor answers to
     * @param timeout how long to wait for the reply
     * @param <R> the reply's type
     * @return the reply; completes exceptionally on timeout, when the root stops or while the application shuts down
     * @throws IllegalStateException when the application declares no root actor, or before it is created
     */
    public <R extends TbActorMsg> CompletableFuture<R> ask(Function<TbActorRef, ? extends TbActorMsg> request, Duration timeout) {
        requireRootDeclared();
        return ask(requireRootCreated().getActorId(), request, timeout);
    }

    /**
     * Asks any actor by id and returns its reply (see {@link DefaultTbActorSystem#ask}).
     *
     * @param target the actor to ask
     * @param request builds the request around the reply-to reference the actor answers to
     * @param timeout how long to wait for the reply
     * @param <R> the reply's type
     * @return the reply; completes exceptionally on timeout, when the target stops, while the application shuts down,
     *     or with an {@link UnsupportedOperationException} when the actor system is not a {@link DefaultTbActorSystem}
     */
    public <R extends TbActorMsg> CompletableFuture<R> ask(TbActorId target, Function<TbActorRef, ? extends TbActorMsg> request,
                                                           Duration timeout) {
        if (!isAcceptingMessages()) {
            rejectedMessages.increment();
            return CompletableFuture.failedFuture(new TbActorStoppedException(target, TbActorStopReason.STOPPED,
                    "The application is shutting down: no new requests are accepted"));
        }
        if (!(actorSystem instanceof DefaultTbActorSystem system)) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("ask needs a "
                    + DefaultTbActorSystem.class.getName() + "; the actor system bean is a " + actorSystem.getClass().getName()));
        }
        return system.ask(target, request, timeout);
    }

    private void deliver(TbActorMsg msg, boolean highPriority) {
        Objects.requireNonNull(msg, "msg must not be null");
        requireRootDeclared();
        if (!isAcceptingMessages()) {
            reject(msg);
            return;
        }
        TbActorRef root = requireRootCreated();
        if (highPriority) {
            root.tellWithHighPriority(msg);
        } else {
            root.tell(msg);
        }
    }

    private void requireRootDeclared() {
        if (rootActorCreator() == null) {
            throw new IllegalStateException("No root actor is declared: define one bean of type "
                    + TbRootActorCreator.class.getName() + " to have a root actor, or tell actors through the "
                    + "TbActorSystem bean directly");
        }
    }

    private TbActorRef requireRootCreated() {
        TbActorRef root = rootActor;
        if (root == null) {
            throw new IllegalStateException("The root actor is not created yet: it is created when the application "
                    + "context starts; tell it from an ApplicationReadyEvent listener or later");
        }
        return root;
    }

    private void reject(TbActorMsg msg) {
        rejectedMessages.increment();
        try {
            msg.onTbActorStopped(TbActorStopReason.STOPPED);
        } catch (RuntimeException e) {
            log.warn("onTbActorStopped(STOPPED) of {} threw", msg.getClass().getName(), e);
        }
    }

    /** @return the actor system, to create actors or tell them directly */
    public TbActorSystem getActorSystem() {
        return actorSystem;
    }

    /** @return what the actor system tells about itself, when it offers that (the default system does) */
    public Optional<TbActorSystemIntrospection> getIntrospection() {
        return Optional.ofNullable(introspection);
    }

    /** @return the actor system's scheduler; tasks that throw are logged and periodic ones keep running */
    public ScheduledExecutorService getScheduler() {
        return actorSystem.getScheduler();
    }

    /**
     * Looks up a bean of the application, so actors reach its services. Singletons are cached after the first
     * look-up, which keeps this cheap enough for actors to call while processing.
     *
     * @param type the bean's type
     * @param <T> the bean's type
     * @return the bean
     * @throws org.springframework.beans.BeansException when there is no such bean or more than one
     */
    public <T> T getBean(Class<T> type) {
        Object cached = singletonBeans.get(type);
        if (cached != null) {
            return type.cast(cached);
        }
        T bean = applicationContext.getBean(type);
        String[] names = applicationContext.getBeanNamesForType(type);
        if (names.length == 1 && applicationContext.isSingleton(names[0])) {
            singletonBeans.put(type, bean);
        }
        return bean;
    }

    /** @return the application context */
    public ApplicationContext getApplicationContext() {
        return applicationContext;
    }

    /** @return whether the application declares a root actor (a {@link TbRootActorCreator} bean) */
    public boolean hasRootActor() {
        return rootActorCreator() != null;
    }

    /** @return the root actor, or null when none is declared or it is not created yet */
    public @Nullable TbActorRef getRootActor() {
        return rootActor;
    }

    /** @return whether messages told now are delivered: false once shutdown has begun or the system stopped */
    public boolean isAcceptingMessages() {
        return !shuttingDown && (introspection == null || introspection.isRunning());
    }

    /** @return messages refused because the application was shutting down; each was told {@code STOPPED} */
    public long getRejectedMessageCount() {
        return rejectedMessages.sum();
    }

    /**
     * Creates the declared root actor on its dispatcher; called when the application context starts.
     *
     * @param defaultDispatcher the dispatcher to use when the declaration names none
     */
    synchronized void createRootActor(String defaultDispatcher) {
        TbRootActorCreator creator = rootActorCreator();
        if (creator == null || rootActor != null) {
            return;
        }
        String dispatcher = creator.getDispatcherName() != null ? creator.getDispatcherName() : defaultDispatcher;
        if (introspection != null && introspection.getDispatcher(dispatcher).isEmpty()) {
            throw new IllegalStateException("The root actor's dispatcher '" + dispatcher + "' does not exist; configure it "
                    + "under tb.actors.dispatchers." + dispatcher + " or name an existing one");
        }
        rootActor = actorSystem.createRootActor(dispatcher, creator);
        log.info("Root actor {} created on dispatcher '{}'", rootActor.getActorId(), dispatcher);
    }

    /** Refuses every later message: they are told {@code STOPPED}. Called when shutdown begins. */
    void stopAcceptingMessages() {
        shuttingDown = true;
    }
}
