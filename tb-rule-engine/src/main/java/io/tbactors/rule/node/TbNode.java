package io.tbactors.rule.node;

import java.util.Set;

import io.tbactors.rule.TbMsg;

/**
 * A rule node type, in the spirit of ThingsBoard's {@code TbNode}. An implementation is a Spring bean (constructor
 * injection of the application's services) and is shared by every node of its type in every chain: what differs
 * between those nodes is their configuration, which each call receives in its {@link TbNodeContext}.
 *
 * <p>A type declares its name ({@link #type()}, as written in a chain's {@code type}), its configuration class
 * ({@link #configurationType()}, a record whose components are bound from the node's {@code configuration} object,
 * errors naming the node and the field) and the relations it can leave on ({@link #relations}; {@code Failure} is
 * always possible, and a chain that connects an undeclared relation is refused).
 *
 * <p>{@link #init} and {@link #destroy} follow the node's life in its chain: init when the chain (or a new version
 * of it) starts, destroy when that version retires or the chain stops. {@link #onMsg} is called by the node's actor,
 * one message at a time; it ends the message through the callback, at once or later from any thread (a save done
 * when its batch commits), and the actor goes on with the next message meanwhile. Throwing, or
 * {@link TbNodeCallback#tellFailure}, sends the message on {@code Failure} with the error in metadata {@code error}.
 *
 * @param <C> the configuration type, {@link Void} for none
 */
public interface TbNode<C> {

    /** @return the type name used in chains, e.g. {@code save-timeseries} */
    String type();

    /** @return the class the node's configuration is bound to; {@code Void.class} when it takes none */
    Class<C> configurationType();

    /**
     * @param configuration a node's bound configuration (null for {@code Void})
     * @return the relations a node so configured can leave on, besides {@code Failure}
     */
    Set<String> relations(C configuration);

    /**
     * Checks what binding alone cannot, such as one of two fields being required. The default accepts anything.
     *
     * @param configuration the bound configuration
     * @param errors where to report a field's error
     */
    default void validate(C configuration, NodeConfigErrors errors) {
    }

    /**
     * A node of this type starts with its chain.
     *
     * @param ctx the node: its chain, id, name and configuration
     * @throws Exception when it cannot start: the chain's node actor retries, then stops
     */
    default void init(TbNodeContext<C> ctx) throws Exception {
    }

    /**
     * Processes one message; ends it through {@code callback}, exactly once, now or later.
     *
     * @param ctx the node
     * @param msg the message
     * @param callback where the node tells the relations the message leaves on, or its failure
     * @throws Exception when the message cannot be processed: it leaves on {@code Failure}
     */
    void onMsg(TbNodeContext<C> ctx, TbMsg msg, TbNodeCallback callback) throws Exception;

    /**
     * A node of this type stops: its chain version retired or the chain stopped.
     *
     * @param ctx the node
     */
    default void destroy(TbNodeContext<C> ctx) {
    }
}
