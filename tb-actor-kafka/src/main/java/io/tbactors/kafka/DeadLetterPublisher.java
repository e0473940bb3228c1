package io.tbactors.kafka;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/**
 * Writes a record that could not be processed to the dead-letter topic: the original key, value and headers, plus
 * headers saying where it came from and why it was given up. The record's offset may be committed only once Kafka
 * has the dead letter.
 *
 * <p>Sends run on a thread of their own: a producer may block while Kafka is unreachable, and the completion that
 * asks for a dead letter may run on a dispatcher thread.
 */
public final class DeadLetterPublisher {

    /** Header of a dead letter: why it was given up, one of {@link Reason}. */
    public static final String REASON_HEADER = "tb-dlt-reason";

    /** Header of a dead letter: the last failure (its class and message), or the reason it came back unprocessed. */
    public static final String ERROR_HEADER = "tb-dlt-error";

    /** Header of a dead letter: how many times it was delivered. */
    public static final String ATTEMPTS_HEADER = "tb-dlt-attempts";

    /** Header of a dead letter: the topic it was read from. */
    public static final String TOPIC_HEADER = "tb-dlt-original-topic";

    /** Header of a dead letter: the partition it was read from. */
    public static final String PARTITION_HEADER = "tb-dlt-original-partition";

    /** Header of a dead letter: its offset in that partition. */
    public static final String OFFSET_HEADER = "tb-dlt-original-offset";

    /** Why a record was given up. */
    public enum Reason {
        /** Its actor reported a failure on the last delivery. */
        FAILED,
        /** Its last delivery was not completed within the processing timeout. */
        TIMED_OUT,
        /** Its last delivery came back unprocessed (mailbox full, actor stopped or passivated). */
        NOT_PROCESSED;

        /**
         * @param cause the last delivery's failure, or null when it came back unprocessed
         * @return the reason
         */
        static Reason of(Throwable cause) {
            if (cause == null) {
                return NOT_PROCESSED;
            }
            return cause instanceof TbProcessingTimeoutException ? TIMED_OUT : FAILED;
        }
    }

    private final String topic;
    private final DefaultKafkaProducerFactory<String, byte[]> producerFactory;
    private final KafkaTemplate<String, byte[]> template;
    private final ExecutorService sender;
    private final LongAdder published = new LongAdder();

    /**
     * @param topic the dead-letter topic
     * @param producerFactory the producer of the dead letters, destroyed by {@link #close()}
     */
    DeadLetterPublisher(String topic, DefaultKafkaProducerFactory<String, byte[]> producerFactory) {
        this.topic = topic;
        this.producerFactory = producerFactory;
        this.template = new KafkaTemplate<>(producerFactory);
        this.sender = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tb-cluster-dead-letters");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * @param record the record given up
     * @param reason why
     * @param error the last failure, or what came back, as text
     * @param attempts how many times it was delivered
     * @return completes once Kafka has the dead letter, exceptionally when it could not be written
     */
    CompletableFuture<Void> publish(ConsumerRecord<String, byte[]> record, Reason reason, String error, int attempts) {
        ProducerRecord<String, byte[]> deadLetter = new ProducerRecord<>(topic, null, record.key(), record.value());
        for (Header header : record.headers()) {
            deadLetter.headers().add(header);
        }
        deadLetter.headers().add(REASON_HEADER, bytes(reason.name()))
                .add(ERROR_HEADER, bytes(error))
                .add(ATTEMPTS_HEADER, bytes(String.valueOf(attempts)))
                .add(TOPIC_HEADER, bytes(record.topic()))
                .add(PARTITION_HEADER, bytes(String.valueOf(record.partition())))
                .add(OFFSET_HEADER, bytes(String.valueOf(record.offset())));
        return CompletableFuture.supplyAsync(() -> template.send(deadLetter), sender)
                .thenCompose(sent -> sent)
                .thenRun(published::increment);
    }

    private static byte[] bytes(String text) {
        return String.valueOf(text).getBytes(StandardCharsets.UTF_8);
    }

    /** @return the producer the dead letters are written with, for the member's other writes; destroyed by {@link #close()} */
    ProducerFactory<String, byte[]> producers() {
        return producerFactory;
    }

    /** @return the dead-letter topic */
    public String getTopic() {
        return topic;
    }

    /** @return dead letters Kafka has acknowledged */
    long getPublishedCount() {
        return published.sum();
    }

    /** Stops the sending thread and closes the producer. */
    void close() {
        sender.shutdownNow();
        producerFactory.destroy();
    }
}
