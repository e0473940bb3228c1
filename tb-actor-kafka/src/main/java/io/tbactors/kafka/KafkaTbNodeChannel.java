package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import io.tbactors.core.RateLimitedWarning;
import io.tbactors.kafka.codec.TbActorMsgCodec;
import io.tbactors.kafka.codec.TbEncodedMsg;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import lombok.extern.slf4j.Slf4j;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * This node's end of the node-to-node channel: an inbox topic of its own ({@code <topic>.node.<node-id>}, one
 * partition), read from its end by a consumer outside any group, where the other nodes write broadcasts and the
 * answers to this node's requests. The other nodes are the consumer group's members, each known by its client id,
 * which is its node id.
 *
 * <p>It starts after the actors and before the member joins the group, and stops after the member has left, so the
 * answers the owner sends while it drains are still read.
 */
@Slf4j
public class KafkaTbNodeChannel implements TbNodeChannel, SmartLifecycle {

    /** Phase: after the actors ({@code TbActorsLifecycle.PHASE}), before the member joins. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1024;

    /** Record header of the node-to-node channel: {@code broadcast}, {@code direct} or {@code reply}. */
    public static final String KIND_HEADER = "tb-node-kind";

    /** Record header of a request and its answer: the request's id. */
    public static final String REQUEST_ID_HEADER = "tb-request-id";

    /** Record header of a request: the node that waits for the answer. */
    public static final String REPLY_TO_HEADER = "tb-reply-to";

    /** Record header of an answer when the message was given up: the dead letter's reason. */
    public static final String FAILURE_REASON_HEADER = "tb-reply-failure-reason";

    /** Record header of an answer when the message was given up: the last failure. */
    public static final String FAILURE_ERROR_HEADER = "tb-reply-failure-error";

    /** Record header of a broadcast: the node it came from. */
    public static final String FROM_HEADER = "tb-from-node";

    private static final String BROADCAST = "broadcast";
    private static final String REPLY = "reply";
    private static final String DIRECT = "direct";
    private static final Duration RETRY_BACKOFF = Duration.ofSeconds(1);
    /** Inbox records only matter while someone waits for them. */
    private static final String INBOX_RETENTION_MS = String.valueOf(Duration.ofHours(1).toMillis());

    private final TbClusterProperties properties;
    private final KafkaClientConfigs configs;
    private final TbActorMsgCodec codec;
    private final BroadcastListeners listeners;
    private final String nodeId;
    private final String inboxTopic;
    private final DefaultKafkaProducerFactory<String, byte[]> producerFactory;
    private final KafkaTemplate<String, byte[]> template;
    private final ExecutorService replySender = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "tb-cluster-replies");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, PendingRequest> pending = new ConcurrentHashMap<>();
    private final LongAdder broadcastsSent = new LongAdder();
    private final LongAdder broadcastsReceived = new LongAdder();
    private final LongAdder directSent = new LongAdder();
    private final LongAdder directReceived = new LongAdder();
    private final LongAdder requestsSent = new LongAdder();
    private final LongAdder repliesTimedOut = new LongAdder();
    private final LongAdder repliesSent = new LongAdder();
    private final LongAdder repliesFailed = new LongAdder();
    private final RateLimitedWarning replyLog = new RateLimitedWarning(Duration.ofSeconds(10));
    private final RateLimitedWarning inboxLog = new RateLimitedWarning(Duration.ofSeconds(30));
    private final CountDownLatch ready = new CountDownLatch(1);
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean running;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private final Object adminLock = new Object();
    private volatile Admin admin;
    private Thread thread;

    private record PendingRequest(CompletableFuture<Void> answer, String entity) {
    }

    KafkaTbNodeChannel(TbClusterProperties properties, KafkaClientConfigs configs, TbActorMsgCodec codec,
                       List<TbBroadcastListener> listeners) {
        this.properties = properties;
        this.configs = configs;
        this.codec = codec;
        this.nodeId = properties.nodeName();
        this.listeners = new BroadcastListeners(nodeId, listeners);
        this.inboxTopic = properties.inboxTopicOf(nodeId);
        this.producerFactory = new DefaultKafkaProducerFactory<>(configs.producer());
        this.template = new KafkaTemplate<>(producerFactory);
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = new Thread(this::run, "tb-cluster-inbox-" + nodeId);
        thread.setDaemon(true);
        thread.start();
        if (properties.isStartWithoutKafka()) {
            return;
        }
        try {
            if (!ready.await(TopicPreparer.START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                stop();
                throw new IllegalStateException("Could not read this node's inbox topic '" + inboxTopic + "' within "
                        + TopicPreparer.START_TIMEOUT + " (" + TbClusterProperties.PREFIX + ".bootstrap-servers, or "
                        + TbClusterProperties.PREFIX + ".start-without-kafka)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while opening inbox topic '" + inboxTopic + "'", e);
        }
    }

    private void run() {
        try {
            while (running && !openInbox()) {
                backOff();
            }
            while (running) {
                pollOnce();
            }
        } finally {
            KafkaConsumer<String, byte[]> current = consumer;
            if (current != null) {
                current.close(Duration.ofSeconds(5));
            }
            ended.countDown();
        }
    }

    /** Creates the inbox when allowed, and reads it from its end: what was written before this node started is not its. */
    private boolean openInbox() {
        try {
            if (properties.isCreateTopic()) {
                createInbox();
            }
            KafkaConsumer<String, byte[]> created = new KafkaConsumer<>(configs.inbox());
            try {
                TopicPartition tp = new TopicPartition(inboxTopic, 0);
                created.assign(List.of(tp));
                created.seekToEnd(List.of(tp));
                created.position(tp, TopicPreparer.START_TIMEOUT);
            } catch (RuntimeException e) {
                created.close(Duration.ZERO);
                throw e;
            }
            consumer = created;
            ready.countDown();
            log.info("[{}] Reading inbox topic '{}'", nodeId, inboxTopic);
            return true;
        } catch (RuntimeException e) {
            inboxLog.warn(suppressed -> log.warn("[{}] Inbox topic '{}' not readable yet; retrying every {} ({} more attempts since "
                    + "the last report): {}", nodeId, inboxTopic, RETRY_BACKOFF, suppressed, e.toString()));
            return false;
        }
    }

    private void createInbox() {
        long timeout = TopicPreparer.START_TIMEOUT.toMillis();
        try {
            admin().createTopics(List.of(new NewTopic(inboxTopic, 1, properties.getReplicationFactor())
                    .configs(Map.of("retention.ms", INBOX_RETENTION_MS)))).all().get(timeout, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("Could not create inbox topic '" + inboxTopic + "': " + e.getCause(), e);
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("Could not create inbox topic '" + inboxTopic + "' within " + timeout + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating inbox topic '" + inboxTopic + "'", e);
        }
    }

    private void backOff() {
        try {
            ended.await(RETRY_BACKOFF.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void pollOnce() {
        try {
            for (ConsumerRecord<String, byte[]> record : consumer.poll(properties.getPollTimeout())) {
                receive(record);
            }
        } catch (WakeupException e) {
            log.debug("[{}] Inbox consumer woken up", nodeId);
        } catch (RuntimeException e) {
            inboxLog.warn(suppressed -> log.warn("[{}] Polling inbox topic '{}' failed; retrying in {} ({} more since the last "
                    + "report)", nodeId, inboxTopic, RETRY_BACKOFF, suppressed, e));
            backOff();
        }
    }

    private void receive(ConsumerRecord<String, byte[]> record) {
        String kind = header(record.headers(), KIND_HEADER);
        if (REPLY.equals(kind)) {
            answered(record.headers());
        } else if (BROADCAST.equals(kind) || DIRECT.equals(kind)) {
            String type = header(record.headers(), KafkaClusterMember.TYPE_HEADER);
            TbActorMsg msg;
            try {
                msg = codec.decode(type, record.value());
            } catch (RuntimeException e) {
                log.warn("[{}] Skipped {} {}@{} from node '{}' that could not be decoded: {}", nodeId, kind, inboxTopic, record.offset(),
                        header(record.headers(), FROM_HEADER), e.toString());
                return;
            }
            (DIRECT.equals(kind) ? directReceived : broadcastsReceived).increment();
            listeners.deliver(msg);
        } else {
            log.warn("[{}] Skipped record {}@{} of unknown kind '{}'", nodeId, inboxTopic, record.offset(), kind);
        }
    }

    private void answered(Headers headers) {
        String requestId = header(headers, REQUEST_ID_HEADER);
        PendingRequest request = requestId == null ? null : pending.remove(requestId);
        if (request == null) {
            // answered after its timeout, or to an earlier run of this node
            return;
        }
        String reason = header(headers, FAILURE_REASON_HEADER);
        if (reason == null) {
            request.answer().complete(null);
        } else {
            String error = header(headers, FAILURE_ERROR_HEADER);
            request.answer().completeExceptionally(new TbClusterRemoteFailureException("The owner of " + request.entity()
                    + " gave the message up (" + reason + ": " + error + "); it went to the dead-letter topic", reason, error));
        }
    }

    @Override
    public void stop() {
        Thread inboxThread;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            inboxThread = thread;
        }
        KafkaConsumer<String, byte[]> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        try {
            if (!ended.await(10, TimeUnit.SECONDS)) {
                log.warn("[{}] The inbox thread {} did not end in time", nodeId, inboxThread.getName());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pending.forEach((id, request) -> {
            if (pending.remove(id, request)) {
                request.answer().completeExceptionally(new TbClusterSendOutcomeUnknownException("This node stopped before the owner of "
                        + request.entity() + " answered; the message may still be processed", null));
            }
        });
        if (properties.isNodeNameGenerated() && properties.isCreateTopic()) {
            deleteInbox();
        }
        Admin currentAdmin = admin;
        if (currentAdmin != null) {
            currentAdmin.close(Duration.ofSeconds(5));
        }
        replySender.shutdown();
        try {
            replySender.awaitTermination(properties.getSendTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producerFactory.destroy();
    }

    /** A random name is never used again: its inbox would only take room. */
    private void deleteInbox() {
        try {
            admin().deleteTopics(List.of(inboxTopic)).all().get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            log.info("[{}] Could not delete inbox topic '{}': {}", nodeId, inboxTopic, e.toString());
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public String getNodeId() {
        return nodeId;
    }

    /** @return this node's inbox topic */
    public String getInboxTopic() {
        return inboxTopic;
    }

    @Override
    public CompletableFuture<Void> broadcast(TbActorMsg msg) {
        if (msg == null) {
            throw new IllegalArgumentException("msg must not be null");
        }
        TbEncodedMsg encoded = codec.encode(msg);
        Set<String> others;
        try {
            others = otherNodes();
        } catch (RuntimeException e) {
            listeners.deliver(msg);
            return CompletableFuture.failedFuture(new IllegalStateException("The broadcast of " + encoded.type()
                    + " reached this node only: the group's members could not be read: " + e.getMessage(), e));
        }
        List<CompletableFuture<?>> sends = new ArrayList<>();
        Set<String> failed = ConcurrentHashMap.newKeySet();
        for (String node : others) {
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(properties.inboxTopicOf(node), 0, null, encoded.payload());
            record.headers().add(KIND_HEADER, bytes(BROADCAST))
                    .add(KafkaClusterMember.TYPE_HEADER, bytes(encoded.type()))
                    .add(FROM_HEADER, bytes(nodeId));
            sends.add(send(record).whenComplete((ok, error) -> {
                if (error != null) {
                    failed.add(node + " (" + error.getMessage() + ")");
                }
            }).exceptionally(error -> null));
        }
        broadcastsSent.increment();
        listeners.deliver(msg);
        return CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).thenRun(() -> {
            if (!failed.isEmpty()) {
                throw new IllegalStateException("The broadcast of " + encoded.type() + " did not reach node(s) " + new TreeSet<>(failed));
            }
        });
    }

    @Override
    public CompletableFuture<Void> send(String node, TbActorMsg msg) {
        if (msg == null) {
            throw new IllegalArgumentException("msg must not be null");
        }
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("nodeId must name a node");
        }
        TbEncodedMsg encoded = codec.encode(msg);
        directSent.increment();
        if (nodeId.equals(node)) {
            listeners.deliver(msg);
            return CompletableFuture.completedFuture(null);
        }
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(properties.inboxTopicOf(node), 0, null, encoded.payload());
        record.headers().add(KIND_HEADER, bytes(DIRECT))
                .add(KafkaClusterMember.TYPE_HEADER, bytes(encoded.type()))
                .add(FROM_HEADER, bytes(nodeId));
        return send(record).handle((ok, error) -> {
            if (error != null) {
                throw new IllegalStateException("The " + encoded.type() + " for node '" + node + "' was not written to its inbox: "
                        + error.getMessage(), error);
            }
            return null;
        });
    }

    private CompletableFuture<?> send(ProducerRecord<String, byte[]> record) {
        try {
            return template.send(record);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** @return the node ids of the group's other members, as Kafka knows them now */
    Set<String> otherNodes() {
        long timeout = properties.getSendTimeout().toMillis();
        try {
            ConsumerGroupDescription group = admin().describeConsumerGroups(List.of(properties.getGroupId()))
                    .describedGroups().get(properties.getGroupId()).get(timeout, TimeUnit.MILLISECONDS);
            Set<String> nodes = new TreeSet<>();
            for (MemberDescription member : group.members()) {
                nodes.add(member.clientId());
            }
            nodes.remove(nodeId);
            return nodes;
        } catch (ExecutionException e) {
            throw new IllegalStateException(String.valueOf(e.getCause()), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer within " + properties.getSendTimeout(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private Admin admin() {
        // not the channel's own monitor: start() holds it while the inbox thread creates the topic
        synchronized (adminLock) {
            if (admin == null) {
                admin = Admin.create(configs.admin());
            }
            return admin;
        }
    }

    /**
     * Registers a request this node is about to send, before it is sent.
     *
     * @param entity the entity, for messages
     * @param timeout how long to wait for the answer
     * @return the request's id and its answer, which completes when the owner has processed the message, exceptionally
     *     when it gave it up ({@link TbClusterRemoteFailureException}) or did not answer in time
     *     ({@link TbClusterReplyTimeoutException})
     */
    Request expectReply(String entity, Duration timeout) {
        String requestId = UUID.randomUUID().toString();
        CompletableFuture<Void> answer = new CompletableFuture<>();
        PendingRequest request = new PendingRequest(answer, entity);
        pending.put(requestId, request);
        requestsSent.increment();
        CompletableFuture.delayedExecutor(timeout.toNanos(), TimeUnit.NANOSECONDS).execute(() -> {
            if (pending.remove(requestId, request)) {
                repliesTimedOut.increment();
                answer.completeExceptionally(new TbClusterReplyTimeoutException("The owner of " + entity + " did not answer within "
                        + timeout + "; the message may still be processed"));
            }
        });
        return new Request(requestId, answer);
    }

    /**
     * @param id the request's id, for its record's header
     * @param answer see {@link #expectReply}
     */
    record Request(String id, CompletableFuture<Void> answer) {

        /** @param failure why the request could not be sent: its answer fails with it */
        void notSent(Throwable failure) {
            answer.completeExceptionally(failure);
        }
    }

    /** @param requestId a request that was not sent after all */
    void forget(String requestId) {
        pending.remove(requestId);
    }

    /**
     * Answers a record that asked for it (it has a reply-to header): processed when {@code failureReason} is null,
     * given up otherwise. Never blocks the caller for longer than the producer's send.
     *
     * @param record the record processed or given up
     * @param failureReason null, or the dead letter's reason
     * @param failureError the last failure, when given up
     */
    void answer(ConsumerRecord<String, byte[]> record, String failureReason, String failureError) {
        String replyTo = header(record.headers(), REPLY_TO_HEADER);
        String requestId = header(record.headers(), REQUEST_ID_HEADER);
        if (replyTo == null || requestId == null) {
            return;
        }
        ProducerRecord<String, byte[]> reply = new ProducerRecord<>(properties.inboxTopicOf(replyTo), 0, null, new byte[0]);
        reply.headers().add(KIND_HEADER, bytes(REPLY)).add(REQUEST_ID_HEADER, bytes(requestId));
        if (failureReason != null) {
            reply.headers().add(FAILURE_REASON_HEADER, bytes(failureReason)).add(FAILURE_ERROR_HEADER, bytes(failureError));
        }
        // the caller may be a dispatcher thread, and a producer may block while Kafka is unreachable
        CompletableFuture.supplyAsync(() -> send(reply), replySender).thenCompose(sent -> sent).whenComplete((ok, error) -> {
            if (error == null) {
                repliesSent.increment();
            } else {
                repliesFailed.increment();
                replyLog.warn(suppressed -> log.warn("[{}] Answering request {} of node '{}' failed; it will time out there ({} more "
                        + "since the last report): {}", nodeId, requestId, replyTo, suppressed, error.toString()));
            }
        });
    }

    private static String header(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return String.valueOf(text).getBytes(StandardCharsets.UTF_8);
    }

    /** @return messages this node sent to one node ({@link #send(String, TbActorMsg)}), itself included */
    public long getDirectSentCount() {
        return directSent.sum();
    }

    /** @return messages other nodes sent to this one alone */
    public long getDirectReceivedCount() {
        return directReceived.sum();
    }

    /** @return broadcasts this node sent */
    public long getBroadcastsSentCount() {
        return broadcastsSent.sum();
    }

    /** @return broadcasts from other nodes this node received */
    public long getBroadcastsReceivedCount() {
        return broadcastsReceived.sum();
    }

    /** @return requests this node sent through Kafka to an entity's owner */
    public long getRequestsSentCount() {
        return requestsSent.sum();
    }

    /** @return requests of this node whose owner did not answer in time */
    public long getRepliesTimedOutCount() {
        return repliesTimedOut.sum();
    }

    /** @return answers this node sent to requesting nodes */
    public long getRepliesSentCount() {
        return repliesSent.sum();
    }

    /** @return answers this node could not send (their requester times out) */
    public long getRepliesFailedCount() {
        return repliesFailed.sum();
    }

    /** @return requests of this node waiting for their answer */
    public int getPendingRequests() {
        return pending.size();
    }
}
