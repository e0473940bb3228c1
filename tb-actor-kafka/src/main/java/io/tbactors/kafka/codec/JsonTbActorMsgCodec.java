package io.tbactors.kafka.codec;

import io.tbactors.api.TbActorMsg;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The default codec: JSON through Jackson, for the message types registered by name. Only registered types are
 * ever instantiated from a record, so a record cannot make a node build an arbitrary class. Records (Java
 * {@code record}s) and plain beans work as Jackson maps them.
 */
public class JsonTbActorMsgCodec implements TbActorMsgCodec {

    private final JsonMapper mapper;
    private final Map<String, Class<? extends TbActorMsg>> typesByName;
    private final Map<Class<?>, String> namesByType;

    /**
     * @param mapper the JSON mapper
     * @param types the message types that may cross the wire, by the name written in each record
     * @throws IllegalArgumentException when one class is registered under two names
     */
    public JsonTbActorMsgCodec(JsonMapper mapper, Map<String, Class<? extends TbActorMsg>> types) {
        this.mapper = Objects.requireNonNull(mapper, "mapper must not be null");
        this.typesByName = Collections.unmodifiableMap(new LinkedHashMap<>(types));
        Map<Class<?>, String> names = new HashMap<>();
        types.forEach((name, type) -> {
            String previous = names.put(type, name);
            if (previous != null) {
                throw new IllegalArgumentException(type.getName() + " is registered twice, as '" + previous + "' and '"
                        + name + "': register each message type under one name");
            }
        });
        this.namesByType = names;
    }

    @Override
    public void checkEncodable(Class<? extends TbActorMsg> type) {
        if (!namesByType.containsKey(type)) {
            throw new TbActorMsgEncodingException("Message type " + type.getName() + " cannot be sent across the "
                    + "cluster: register it with tb.actors.cluster.message-types.<name>=" + type.getName()
                    + " or provide a " + TbActorMsgCodec.class.getSimpleName() + " bean that encodes it", null);
        }
    }

    @Override
    public TbEncodedMsg encode(TbActorMsg msg) {
        checkEncodable(msg.getClass());
        try {
            return new TbEncodedMsg(namesByType.get(msg.getClass()), mapper.writeValueAsBytes(msg));
        } catch (JacksonException e) {
            throw new TbActorMsgEncodingException("Message of type " + msg.getClass().getName()
                    + " cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public TbActorMsg decode(String type, byte[] payload) {
        Class<? extends TbActorMsg> target = typesByName.get(type);
        if (target == null) {
            throw new TbActorMsgDecodingException("Unknown message type '" + type + "'; known are " + typesByName.keySet(), null);
        }
        try {
            return mapper.readValue(payload, target);
        } catch (JacksonException e) {
            throw new TbActorMsgDecodingException("Record is not a valid '" + type + "' message: " + e.getOriginalMessage(), e);
        }
    }

    /** @return the registered types by name */
    public Map<String, Class<? extends TbActorMsg>> getTypes() {
        return typesByName;
    }
}
