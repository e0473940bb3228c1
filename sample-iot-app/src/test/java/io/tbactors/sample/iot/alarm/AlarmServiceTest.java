package io.tbactors.sample.iot.alarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.OptimisticLockingFailureException;

class AlarmServiceTest {

    private static final UUID TENANT = UUID.randomUUID();
    private static final UUID DEVICE = UUID.randomUUID();

    private final AlarmRepository repository = mock(AlarmRepository.class);
    private final AlarmService service = new AlarmService(repository);

    @Test
    void raisingWhileAnotherWriterUpdatedTheAlarmRetriesOnTheFreshRow() {
        Alarm active = active(1000, 0L);
        when(repository.findByDeviceIdAndActiveType(DEVICE, "Hot")).thenReturn(Optional.of(active));
        when(repository.save(any())).thenThrow(new OptimisticLockingFailureException("stale"))
                .thenAnswer(call -> call.getArgument(0));

        AlarmService.RaiseResult result = service.raise(TENANT, DEVICE, "Hot", AlarmSeverity.MAJOR, 2000, "{}");

        assertThat(result.created()).isFalse();
        assertThat(result.alarm().endTs()).isEqualTo(2000);
        assertThat(result.alarm().severity()).isEqualTo(AlarmSeverity.MAJOR);
        verify(repository, times(2)).save(any());
    }

    @Test
    void raisingWhenAnotherWriterRaisedTheSameTypeFirstUpdatesTheirAlarm() {
        Alarm theirs = active(1000, 0L);
        when(repository.findByDeviceIdAndActiveType(DEVICE, "Hot")).thenReturn(Optional.empty()).thenReturn(Optional.of(theirs));
        when(repository.save(any())).thenThrow(new DuplicateKeyException("alarm_one_active_uq"))
                .thenAnswer(call -> call.getArgument(0));

        AlarmService.RaiseResult result = service.raise(TENANT, DEVICE, "Hot", AlarmSeverity.CRITICAL, 1500, "{}");

        assertThat(result.created()).isFalse();
        assertThat(result.alarm().id()).isEqualTo(theirs.id());
    }

    @Test
    void aLateOlderReadingDoesNotClearAnAlarmANewerReadingKeepsRaised() {
        when(repository.findByDeviceIdAndActiveType(DEVICE, "Hot")).thenReturn(Optional.of(active(1000, 0L).withEndTs(3000)));

        assertThat(service.clear(DEVICE, "Hot", 2000)).isEmpty();
        when(repository.save(any())).thenAnswer(call -> call.getArgument(0));
        Optional<Alarm> cleared = service.clear(DEVICE, "Hot", 4000);
        assertThat(cleared).hasValueSatisfying(alarm -> {
            assertThat(alarm.status()).isEqualTo(AlarmStatus.CLEARED);
            assertThat(alarm.activeType()).isNull();
            assertThat(alarm.clearTs()).isEqualTo(4000);
        });
    }

    private static Alarm active(long startTs, Long version) {
        return new Alarm(UUID.randomUUID(), TENANT, DEVICE, "Hot", AlarmSeverity.MINOR, AlarmStatus.ACTIVE, startTs, startTs, null,
                "{}", "Hot", version);
    }
}
