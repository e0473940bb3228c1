package io.tbactors.kafka.actuate;

import io.tbactors.kafka.DeadLetterPublisher;
import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.TbClusterDeadLetter;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code tbactorsdeadletters} endpoint: the records this node wrote to the dead-letter topic since it started, counted
 * by reason, and the most recent of them with entity, partition, offset, reason, error and attempts.
 */
@Endpoint(id = "tbactorsdeadletters")
public class DeadLettersEndpoint {

    private final KafkaClusterMember member;

    /** @param member this node's cluster membership */
    public DeadLettersEndpoint(KafkaClusterMember member) {
        this.member = member;
    }

    /** @return the dead letters of this node */
    @ReadOperation
    public DeadLettersDescriptor deadLetters() {
        return new DeadLettersDescriptor(member.getDeadLetterTopic(), member.getDeadLetteredCount(),
                member.getDeadLetteredCountByReason(), member.getRecentDeadLetters());
    }

    /**
     * @param topic the dead-letter topic
     * @param total records this node wrote there since it started
     * @param byReason the same, by reason
     * @param recent the last ones (at most {@value KafkaClusterMember#RECENT_DEAD_LETTERS}), newest last
     */
    public record DeadLettersDescriptor(String topic, long total, Map<DeadLetterPublisher.Reason, Long> byReason,
                                        List<TbClusterDeadLetter> recent) {
    }
}
