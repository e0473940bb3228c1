package io.tbactors.rule.spel;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import io.tbactors.rule.TbMsg;

/**
 * What an expression sees as its root: {@code data}, {@code metadata}, {@code msgType}, {@code ts} and
 * {@code originator} (the originator's id as text), in that order. Unmodifiable. Each value is read from the message when
 * the expression asks for it: a condition such as {@code data.temperature > 30} is evaluated for every message, and a
 * map of the five entries built for each evaluation (the time boxed, the originator's id turned into text) was most of
 * what the evaluation allocated besides SpEL's own state.
 */
final class MsgRoot extends AbstractMap<String, Object> {

    private static final String DATA = "data";
    private static final String METADATA = "metadata";
    private static final String MSG_TYPE = "msgType";
    private static final String TS = "ts";
    private static final String ORIGINATOR = "originator";
    private static final List<String> NAMES = List.of(DATA, METADATA, MSG_TYPE, TS, ORIGINATOR);

    private final TbMsg msg;

    /** @param msg the message the expression looks at */
    MsgRoot(TbMsg msg) {
        this.msg = msg;
    }

    @Override
    public Object get(Object key) {
        if (!(key instanceof String name)) {
            return null;
        }
        return switch (name) {
            case DATA -> msg.data();
            case METADATA -> msg.metadata();
            case MSG_TYPE -> msg.type();
            case TS -> msg.ts();
            case ORIGINATOR -> String.valueOf(msg.originatorId());
            default -> null;
        };
    }

    @Override
    public boolean containsKey(Object key) {
        // an immutable list's contains refuses null; a map's containsKey answers false
        return key instanceof String && NAMES.contains(key);
    }

    @Override
    public int size() {
        return NAMES.size();
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Object>> iterator() {
                return NAMES.stream().<Entry<String, Object>>map(name -> new SimpleImmutableEntry<>(name, get(name)))
                        .iterator();
            }

            @Override
            public int size() {
                return NAMES.size();
            }
        };
    }
}
