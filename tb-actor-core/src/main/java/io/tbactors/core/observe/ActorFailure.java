package io.tbactors.core.observe;

import java.time.Instant;

/**
 * One failure of an actor's own code ({@code init} or {@code process}) and what the runtime did about it, as kept in
 * the list of recent failures ({@link TbActorSystemIntrospection#getRecentFailures()}).
 *
 * @param time when it happened
 * @param actorId the actor's id as text
 * @param actorType the actor's class name
 * @param dispatcher the actor's dispatcher
 * @param phase which callback failed
 * @param outcome what the runtime did
 * @param exceptionClass the exception's class name
 * @param message the exception's message, or null
 */
public record ActorFailure(Instant time, String actorId, String actorType, String dispatcher, Phase phase, Outcome outcome,
                           String exceptionClass, String message) {

    /** Which of the actor's callbacks failed. */
    public enum Phase {
        /** {@code init}. */
        INIT("init"),
        /** {@code process}. */
        PROCESS("process");

        private final String tag;

        Phase(String tag) {
            this.tag = tag;
        }

        /** @return the lower-case name used as a metric tag and in logs */
        public String tag() {
            return tag;
        }
    }

    /** What the runtime did after the failure, as the actor's failure strategy decided. */
    public enum Outcome {
        /** The message was dropped and the actor goes on (the default for process failures). */
        RESUMED("resumed"),
        /** The actor was stopped. */
        STOPPED("stopped"),
        /** The actor was replaced by a fresh instance. */
        RESTARTED("restarted"),
        /** Init will be tried again. */
        RETRYING("retrying"),
        /** Init gave up: the actor refuses messages with {@code INIT_FAILED} until an update initialises it again. */
        GAVE_UP("gave-up");

        private final String tag;

        Outcome(String tag) {
            this.tag = tag;
        }

        /** @return the lower-case name used as a metric tag and in logs */
        public String tag() {
            return tag;
        }
    }
}
