package io.tbactors.rule.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import io.tbactors.rule.stats.RuleNodeStats;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the rule engine, under {@code tb.rule-engine}.
 */
@ConfigurationProperties("tb.rule-engine")
public class RuleEngineProperties {

    /**
     * Chain files to run, JSON or YAML (.yaml, .yml), such as classpath:rule-chains/root.json or
     * file:/etc/app/chain.yaml; used when the application has no RuleChainSource bean of its own.
     */
    private List<String> chains = new ArrayList<>();

    /** Dispatcher of the chain and node actors; made as a fork-join pool of one thread per core when missing. */
    private String dispatcher = "rule-engine";

    /** How many of its last messages in and out a node in debug mode keeps. */
    private int debugCapacity = RuleNodeStats.DEFAULT_DEBUG_CAPACITY;

    /** @return the chain files */
    public List<String> getChains() {
        return chains;
    }

    /** @param chains the chain files */
    public void setChains(List<String> chains) {
        this.chains = chains;
    }

    /** @return the dispatcher's name */
    public String getDispatcher() {
        return dispatcher;
    }

    /** @param dispatcher the dispatcher's name */
    public void setDispatcher(String dispatcher) {
        this.dispatcher = dispatcher;
    }

    /** @return the debug events kept per node */
    public int getDebugCapacity() {
        return debugCapacity;
    }

    /** @param debugCapacity the debug events kept per node */
    public void setDebugCapacity(int debugCapacity) {
        this.debugCapacity = debugCapacity;
    }
}
