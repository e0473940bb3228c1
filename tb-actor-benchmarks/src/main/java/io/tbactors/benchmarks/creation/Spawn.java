package io.tbactors.benchmarks.creation;

import io.tbactors.api.TbActorMsg;

/**
 * Tells a parent to create children named {@code names[0 .. count - 1]}.
 *
 * @param names the children's names, made once before measuring
 * @param count how many to create
 */
record Spawn(String[] names, int count) implements TbActorMsg {
}
