package io.tbactors.sample.iot.console;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorRef;
import io.tbactors.core.observe.ActorStats;
import io.tbactors.core.observe.DispatcherStats;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import io.tbactors.sample.iot.actors.IotActorIds;
import io.tbactors.sample.iot.alarm.Alarm;
import io.tbactors.sample.iot.alarm.AlarmService;
import io.tbactors.sample.iot.alarm.AlarmStatus;
import io.tbactors.sample.iot.console.ConsoleViews.ActorRow;
import io.tbactors.sample.iot.console.ConsoleViews.Actors;
import io.tbactors.sample.iot.console.ConsoleViews.AlarmRow;
import io.tbactors.sample.iot.console.ConsoleViews.Alarms;
import io.tbactors.sample.iot.console.ConsoleViews.DeviceRow;
import io.tbactors.sample.iot.console.ConsoleViews.Devices;
import io.tbactors.sample.iot.console.ConsoleViews.DispatcherRow;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.rule.RuleChain;
import io.tbactors.sample.iot.rule.RuleChainService;
import io.tbactors.sample.iot.storage.TimeseriesDao;
import io.tbactors.sample.iot.storage.TsValue;
import io.tbactors.sample.iot.tenant.DefaultTenant;
import io.tbactors.spring.ActorSystemContext;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * Reads what the console shows: devices with their latest values, alarms, and the runtime (the actor tree from
 * the root actor down, each dispatcher's load). Reads only; nothing here changes the application.
 */
@Service
public class ConsoleSnapshots {

    private final DeviceService deviceService;
    private final TimeseriesDao timeseriesDao;
    private final AlarmService alarmService;
    private final RuleChainService ruleChainService;
    private final ActorSystemContext actorSystemContext;
    private final ConsoleProperties properties;
    private final DispatcherRates rates;

    /**
     * @param deviceService devices
     * @param timeseriesDao latest values
     * @param alarmService alarms
     * @param ruleChainService chain names for the actor tree
     * @param actorSystemContext the actor system
     * @param properties limits of the lists
     * @param meterRegistry the starter's counters, for messages per second (none: rates stay 0)
     */
    public ConsoleSnapshots(DeviceService deviceService, TimeseriesDao timeseriesDao, AlarmService alarmService,
                            RuleChainService ruleChainService, ActorSystemContext actorSystemContext,
                            ConsoleProperties properties, ObjectProvider<MeterRegistry> meterRegistry) {
        this.deviceService = deviceService;
        this.timeseriesDao = timeseriesDao;
        this.alarmService = alarmService;
        this.ruleChainService = ruleChainService;
        this.actorSystemContext = actorSystemContext;
        this.properties = properties;
        this.rates = new DispatcherRates(meterRegistry.getIfAvailable(SimpleMeterRegistry::new), System::nanoTime);
    }

    /** @return the tenant's devices (up to {@code sample.console.max-devices}) with their latest values */
    public Devices devices() {
        List<Device> all = deviceService.findAll();
        List<DeviceRow> rows = new ArrayList<>();
        for (Device device : all.subList(0, Math.min(all.size(), properties.getMaxDevices()))) {
            Map<String, TsValue> latest = timeseriesDao.findLatest(device.id(), null);
            Long lastActivity = latest.values().stream().map(TsValue::ts).max(Long::compare).orElse(null);
            rows.add(new DeviceRow(device.id(), device.name(), device.type(), device.createdTime(), lastActivity, latest));
        }
        return new Devices(all.size(), rows);
    }

    /** @return the tenant's newest alarms (up to {@code sample.console.max-alarms}) with their devices' names */
    public Alarms alarms() {
        Map<UUID, String> names = new HashMap<>();
        deviceService.findAll().forEach(device -> names.put(device.id(), device.name()));
        List<Alarm> all = alarmService.find(DefaultTenant.ID, null, null);
        List<AlarmRow> rows = all.stream().limit(properties.getMaxAlarms())
                .map(alarm -> new AlarmRow(alarm.id(), alarm.deviceId(), names.get(alarm.deviceId()), alarm.type(),
                        alarm.severity(), alarm.status(), alarm.startTs(), alarm.endTs(), alarm.clearTs()))
                .toList();
        long active = all.stream().filter(alarm -> alarm.status() == AlarmStatus.ACTIVE).count();
        return new Alarms(active, rows);
    }

    /** @return the actor tree (up to {@code sample.console.max-actors}) and each dispatcher's load */
    public Actors actors() {
        TbActorSystemIntrospection system = actorSystemContext.getIntrospection().orElseThrow(() -> new IllegalStateException(
                "The console reads the runtime through " + TbActorSystemIntrospection.class.getSimpleName() + ", which the "
                        + "actor system bean (" + actorSystemContext.getActorSystem().getClass().getName() + ") does not offer"));
        Map<String, Double> perSecond = rates.rates();
        List<DispatcherRow> dispatchers = new ArrayList<>();
        for (DispatcherStats d : system.getDispatcherStats()) {
            dispatchers.add(new DispatcherRow(d.name(), d.kind(), d.poolSize(), d.threads(), d.activeThreads(), d.queuedTasks(),
                    perSecond.getOrDefault(d.name(), 0.0), d.actors(), d.pendingMessages()));
        }
        int count = system.getActorCount();
        List<ActorRow> tree = new ArrayList<>();
        TbActorRef root = actorSystemContext.getRootActor();
        if (root != null) {
            walk(system, root.getActorId(), labels(), tree);
        }
        return new Actors(count, system.getPendingMessages(), system.isRunning(), tree.size() < count, dispatchers, tree);
    }

    private void walk(TbActorSystemIntrospection system, TbActorId rootId, Map<String, String> labels, List<ActorRow> tree) {
        Deque<Frame> stack = new ArrayDeque<>();
        stack.push(new Frame(rootId, 0));
        while (!stack.isEmpty() && tree.size() < properties.getMaxActors()) {
            Frame top = stack.pop();
            TbActorId id = top.id();
            int depth = top.depth();
            ActorStats stats = system.findActorStats(id.toString()).orElse(null);
            if (stats == null) {
                continue;
            }
            tree.add(new ActorRow(stats.id(), labels.getOrDefault(stats.id(), label(stats.id())), stats.actorType(),
                    stats.dispatcher(), stats.state(), stats.pendingMessages(), depth, stats.children()));
            List<TbActorId> children = new ArrayList<>(actorSystemContext.getActorSystem().filterChildren(id, child -> true));
            // chains before devices, then by name: pushed in reverse so that they pop in this order
            children.sort(Comparator.comparing((TbActorId child) -> !IotActorIds.RULE_CHAIN.equals(child.getEntityType()))
                    .thenComparing(child -> labels.getOrDefault(child.toString(), child.toString())).reversed());
            for (TbActorId child : children) {
                stack.push(new Frame(child, depth + 1));
            }
        }
    }

    private record Frame(TbActorId id, int depth) {
    }

    private Map<String, String> labels() {
        Map<String, String> labels = new HashMap<>();
        deviceService.findAll().forEach(device -> labels.put(IotActorIds.device(device.id()).toString(), device.name()));
        for (RuleChain chain : ruleChainService.findByTenant(DefaultTenant.ID)) {
            labels.put(IotActorIds.ruleChain(chain.id()).toString(), chain.name());
        }
        labels.put(IotActorIds.tenant(DefaultTenant.ID).toString(), "Default tenant");
        labels.put(IotActorIds.APP.toString(), "Application");
        return labels;
    }

    /** A rule node's id {@code RULE_NODE|chain|vN|node} reads as {@code node (vN)}; other ids as they are. */
    static String label(String actorId) {
        String[] parts = actorId.split("\\|", 4);
        if (parts.length == 4 && "RULE_NODE".equals(parts[0])) {
            return parts[3] + " (" + parts[2] + ")";
        }
        return actorId;
    }
}
