package io.tbactors.sample.iot.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ParseBudgetTest {

    private final ParseBudget budget = new ParseBudget(1000);

    @Test
    void aBodyThatWouldPassTheBudgetIsRefusedUntilRoomIsGivenBack() {
        assertThat(budget.tryAcquire(600)).isTrue();

        assertThat(budget.tryAcquire(500)).isFalse();
        assertThat(budget.tryAcquire(400)).isTrue();
        assertThat(budget.parsing()).isEqualTo(1000);

        budget.release(600);
        assertThat(budget.tryAcquire(500)).isTrue();
        assertThat(budget.parsing()).isEqualTo(900);
    }

    @Test
    void aBodyLargerThanTheBudgetIsParsedWhenNothingElseIs() {
        assertThat(budget.tryAcquire(5000)).isTrue();
        assertThat(budget.tryAcquire(1)).as("nothing beside it").isFalse();

        budget.release(5000);
        assertThat(budget.parsing()).isZero();
    }
}
