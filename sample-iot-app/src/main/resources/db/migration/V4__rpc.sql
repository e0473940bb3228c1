-- Persistent server-side RPC (ThingsBoard's "persistent": true): kept with its state until it ends, so that it
-- survives a restart and is sent when the device next subscribes; listed per device.
CREATE TABLE rpc (
    id              UUID             NOT NULL PRIMARY KEY,
    tenant_id       UUID             NOT NULL REFERENCES tenant (id),
    device_id       UUID             NOT NULL REFERENCES device (id) ON DELETE CASCADE,
    created_time    BIGINT           NOT NULL,
    expiration_time BIGINT           NOT NULL,
    oneway          BOOLEAN          NOT NULL,
    method          VARCHAR(255)     NOT NULL,
    params          VARCHAR(1000000) NOT NULL,
    timeout_ms      BIGINT           NOT NULL,
    status          VARCHAR(16)      NOT NULL,
    response        VARCHAR(1000000),
    reason          VARCHAR(1000)
);
CREATE INDEX rpc_device_idx ON rpc (device_id, created_time);
