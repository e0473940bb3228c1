package io.tbactors.rule;

import java.util.UUID;

import io.tbactors.api.TbActorStopReason;

/**
 * Told how rule-engine messages end, for an application's own counters (the per-node figures are in
 * {@link io.tbactors.rule.stats.RuleNodeStats}). Called on the thread that ends the message: keep it cheap.
 */
public interface RuleEngineListener {

    /** A listener that ignores everything. */
    RuleEngineListener NONE = new RuleEngineListener() {
    };

    /** Every copy of a message went through its chain. */
    default void msgProcessed() {
    }

    /** A node failed on a message and no {@code Failure} connection took it on. */
    default void msgFailed() {
    }

    /**
     * An actor on a message's way stopped before processing it.
     *
     * @param reason why
     */
    default void msgLost(TbActorStopReason reason) {
    }

    /** A node failed on a message (whether or not a {@code Failure} connection took it on). */
    default void nodeFailed() {
    }

    /**
     * A chain could not be read again on a reload; its actor keeps the version it has (logged at WARN).
     *
     * @param chainId the chain
     * @param failure why
     */
    default void chainReloadFailed(UUID chainId, Throwable failure) {
    }
}
