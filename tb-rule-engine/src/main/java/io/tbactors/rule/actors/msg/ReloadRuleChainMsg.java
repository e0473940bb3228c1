package io.tbactors.rule.actors.msg;

import io.tbactors.api.TbActorMsg;

/**
 * Told with high priority to a chain's actor when its chain changed: it reads the chain again and, when its version
 * changed, creates node actors for the new version and retires the old ones (they finish what was queued for them).
 */
public record ReloadRuleChainMsg() implements TbActorMsg {
}
