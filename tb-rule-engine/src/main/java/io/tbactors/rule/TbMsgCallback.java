package io.tbactors.rule;

/**
 * Told once how a rule-engine message ended: every copy went through the chain, or the chain failed on it, or an
 * actor on its way stopped.
 */
public interface TbMsgCallback {

    /** A callback for messages nobody waits on. */
    TbMsgCallback NONE = new TbMsgCallback() {
        @Override
        public void onSuccess() {
        }

        @Override
        public void onFailure(RuntimeException failure) {
        }
    };

    /** Every copy of the message has gone through the chain and no node failed without a {@code Failure} route. */
    void onSuccess();

    /**
     * @param failure why the message did not go through: a {@link RuleChainFailureException}, or a
     *                {@link MessageNotAcceptedException} when an actor stopped
     */
    void onFailure(RuntimeException failure);
}
