package io.tbactors.rule.node;

import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import io.tbactors.rule.TbMsg;

/**
 * How a node ends one message: once, from any thread. A second call is ignored.
 */
public interface TbNodeCallback {

    /**
     * The message (or its changed copy) leaves on these relations; none ends it here.
     *
     * @param msg the message to pass on
     * @param relations relations the node declares
     */
    void tellNext(TbMsg msg, List<String> relations);

    /**
     * @param msg the message to pass on
     * @param relation a relation the node declares
     */
    default void tellNext(TbMsg msg, String relation) {
        tellNext(msg, List.of(relation));
    }

    /** @param msg the message, on {@code Success} */
    default void tellSuccess(TbMsg msg) {
        tellNext(msg, List.of(Relations.SUCCESS));
    }

    /**
     * The message leaves on {@code Success} when {@code work} completes, on {@code Failure} when it fails: for a node
     * whose work finishes later, such as a save done when its batch commits.
     *
     * @param work the node's work for the message
     * @param msg the message to pass on
     */
    default void tellSuccessWhen(CompletionStage<?> work, TbMsg msg) {
        work.whenComplete((result, failure) -> {
            if (failure == null) {
                tellSuccess(msg);
            } else {
                tellFailure(msg, failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure);
            }
        });
    }

    /**
     * The node failed: the message leaves on {@code Failure} with the error in metadata {@code error}.
     *
     * @param msg the message
     * @param failure why
     */
    void tellFailure(TbMsg msg, Throwable failure);
}
