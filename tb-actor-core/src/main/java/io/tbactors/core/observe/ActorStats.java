package io.tbactors.core.observe;

/**
 * A point-in-time view of one actor.
 *
 * @param id the actor id's string form
 * @param actorType the actor's class simple name
 * @param entityType the id's entity type, or null
 * @param dispatcher its dispatcher
 * @param state {@code INITIALIZING}, {@code ACTIVE}, {@code STOPPING} or {@code DESTROYED}
 * @param pendingMessages messages waiting in its mailbox
 * @param parent the parent id's string form, or null for a root actor
 * @param children number of live children
 */
public record ActorStats(String id, String actorType, String entityType, String dispatcher, String state,
                         int pendingMessages, String parent, int children) {
}
