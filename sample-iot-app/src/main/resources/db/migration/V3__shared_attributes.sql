-- ThingsBoard's shared attributes: set by the server (management API, console), read and followed by the device
-- (attribute requests, updates pushed to its subscribed sessions). Written rarely, so straight, not write-behind.
CREATE TABLE shared_attribute_kv (
    device_id      UUID             NOT NULL REFERENCES device (id) ON DELETE CASCADE,
    attribute_key  VARCHAR(255)     NOT NULL,
    last_update_ts BIGINT           NOT NULL,
    bool_v         BOOLEAN,
    long_v         BIGINT,
    dbl_v          DOUBLE PRECISION,
    str_v          VARCHAR(1000000),
    json_v         VARCHAR(1000000),
    PRIMARY KEY (device_id, attribute_key)
);
