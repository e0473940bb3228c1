package io.tbactors.kafka;

/** Where this node is in its membership of the cluster's consumer group. */
public enum TbClusterMemberState {
    /** Not started yet. */
    STARTING,
    /** The consumer runs and waits for its first partition assignment. */
    JOINING,
    /** A member of the group, owning the partitions it was assigned (possibly none). */
    ACTIVE,
    /** The last poll failed; the member retries. */
    FAILED,
    /** Giving its partitions up and leaving the group. */
    STOPPING,
    /** Left the group. */
    STOPPED
}
