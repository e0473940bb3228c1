package io.tbactors.sample.iot.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.sample.iot.config.SampleProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RoomWaitersTest {

    private static final UUID TENANT = UUID.randomUUID();
    private static final UUID OTHER_TENANT = UUID.randomUUID();

    private final UUID full = UUID.randomUUID();
    private final UUID b = UUID.randomUUID();
    private final UUID c = UUID.randomUUID();

    private static InFlightLimiter limiter(int bound, int heldPerTenant, Duration hold) {
        SampleProperties properties = new SampleProperties();
        properties.getDeviceApi().setMaxInFlightPerDevice(bound);
        properties.getDeviceApi().setMaxInFlightPerTenant(bound);
        properties.getDeviceApi().setMaxHeldRequestsPerTenant(heldPerTenant);
        properties.getDeviceApi().setHoldWhenFull(hold);
        return new InFlightLimiter(properties);
    }

    /** A limiter of 10 values a device and a tenant, all of them taken by one device of {@link #TENANT}. */
    private InFlightLimiter tenantFull(int heldPerTenant, Duration hold) {
        InFlightLimiter limiter = limiter(10, heldPerTenant, hold);
        assertThat(limiter.tryAcquire(TENANT, full, 10)).isNull();
        return limiter;
    }

    @Test
    void roomGivenBackWakesTheTenantsOldestHeldRequestAndItsTryWakesTheNext() {
        InFlightLimiter limiter = tenantFull(3, Duration.ofHours(1));
        CompletableFuture<Boolean> first = limiter.awaitRoom(TENANT, b, 1);
        CompletableFuture<Boolean> second = limiter.awaitRoom(TENANT, c, 1);
        assertThat(first).isNotDone();
        assertThat(second).isNotDone();
        assertThat(limiter.getHeldRequests()).isEqualTo(2);

        limiter.release(TENANT, full, 10);

        assertThat(first).as("the oldest").isCompletedWithValue(true);
        assertThat(second).as("one at a time: the first may take all the room").isNotDone();
        assertThat(limiter.tryAcquire(TENANT, b, 4)).isNull();
        limiter.passRoomOn(TENANT);
        assertThat(second).as("room is left after the first took its own").isCompletedWithValue(true);
        assertThat(limiter.getHeldRequests()).isZero();
    }

    @Test
    void aHeldRequestThatNeedsMoreThanIsFreeLetsOneThatFitsGoFirst() {
        InFlightLimiter limiter = tenantFull(3, Duration.ofHours(1));
        CompletableFuture<Boolean> wide = limiter.awaitRoom(TENANT, b, 8);
        CompletableFuture<Boolean> narrow = limiter.awaitRoom(TENANT, c, 2);

        limiter.release(TENANT, full, 5);

        assertThat(wide).as("8 values do not fit in the 5 given back").isNotDone();
        assertThat(narrow).isCompletedWithValue(true);
        limiter.release(TENANT, full, 5);
        assertThat(wide).isCompletedWithValue(true);
    }

    @Test
    void roomThatCameBackBeforeTheRequestWasHeldWakesIt() {
        InFlightLimiter limiter = limiter(10, 3, Duration.ofHours(1));
        // the caller found no room, then the release came before the hold: no later release would wake it
        assertThat(limiter.awaitRoom(TENANT, b, 1)).isCompletedWithValue(true);
    }

    @Test
    void eachTenantHoldsAtMostItsOwnFewAndTheRestAreNotHeld() {
        InFlightLimiter limiter = limiter(10, 1, Duration.ofHours(1));
        assertThat(limiter.tryAcquire(TENANT, full, 10)).isNull();
        UUID otherFull = UUID.randomUUID();
        assertThat(limiter.tryAcquire(OTHER_TENANT, otherFull, 10)).isNull();

        assertThat(limiter.awaitRoom(TENANT, b, 1)).isNotNull();
        assertThat(limiter.awaitRoom(TENANT, c, 1)).as("the tenant's one is held: refused at once").isNull();
        assertThat(limiter.awaitRoom(OTHER_TENANT, c, 1)).as("another tenant's own").isNotNull();
        assertThat(limiter.awaitRoom(TENANT, b, 11)).as("more than the device bound never fits").isNull();
    }

    @Test
    void aHoldEndsWithoutRoomAfterItsLongestWaitAndNoLongerCounts() {
        InFlightLimiter limiter = tenantFull(1, Duration.ofMillis(50));
        CompletableFuture<Boolean> held = limiter.awaitRoom(TENANT, b, 1);

        assertThat(held.orTimeout(10, TimeUnit.SECONDS).join()).isFalse();
        assertThat(limiter.getHeldRequests()).isZero();
        assertThat(limiter.awaitRoom(TENANT, c, 1)).as("its place is free again").isNotNull();
    }

    @Test
    void holdingIsOffWithZeroHeldOrAZeroWait() {
        assertThat(limiter(10, 0, Duration.ofHours(1)).awaitRoom(TENANT, b, 1)).isNull();
        assertThat(limiter(10, 3, Duration.ZERO).awaitRoom(TENANT, b, 1)).isNull();
    }

    @Test
    void stoppingEndsEveryHoldWithoutRoom() {
        InFlightLimiter limiter = tenantFull(3, Duration.ofHours(1));
        CompletableFuture<Boolean> held = limiter.awaitRoom(TENANT, b, 1);

        limiter.releaseHeld();

        assertThat(held).isCompletedWithValue(false);
        assertThat(limiter.getHeldRequests()).isZero();
    }

    /**
     * Many senders take and give back room while others wait for it: with a hold far longer than the test, a wake-up
     * lost between a sender's check and its hold, or between a release and a waiter, would leave a hold to run out.
     */
    @Test
    void underConcurrentChurnEveryHeldRequestIsWokenWithRoomBeforeItsHoldEnds() throws Exception {
        InFlightLimiter limiter = limiter(4, 8, Duration.ofMinutes(5));
        int senders = 8;
        int perSender = 2_000;
        ExecutorService pool = Executors.newFixedThreadPool(senders);
        List<CompletableFuture<Integer>> done = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int s = 0; s < senders; s++) {
            UUID device = UUID.randomUUID();
            done.add(CompletableFuture.supplyAsync(() -> {
                awaitStart(start);
                int held = 0;
                for (int i = 0; i < perSender; i++) {
                    int values = 1 + i % 3;
                    boolean woken = false;
                    while (true) {
                        String refused = limiter.tryAcquire(TENANT, device, values);
                        if (woken) {
                            // after its try, as the device API does
                            limiter.passRoomOn(TENANT);
                        }
                        if (refused == null) {
                            break;
                        }
                        CompletableFuture<Boolean> room = limiter.awaitRoom(TENANT, device, values);
                        held++;
                        assertThat(room.orTimeout(60, TimeUnit.SECONDS).join()).as("woken with room, not by the hold's end").isTrue();
                        woken = true;
                    }
                    for (int spin = 0; spin < 200; spin++) {
                        // hold the room a moment, as a message in flight does, so that the others find none
                        Thread.onSpinWait();
                    }
                    limiter.release(TENANT, device, values);
                }
                return held;
            }, pool));
        }
        start.countDown();
        int held = 0;
        for (CompletableFuture<Integer> sender : done) {
            held += sender.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(held).as("some requests were held").isPositive();
        await().atMost(Duration.ofSeconds(5)).until(() -> limiter.getHeldRequests() == 0);
        assertThat(limiter.getInFlightValues()).isZero();
    }

    private static void awaitStart(CountDownLatch start) {
        try {
            start.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
