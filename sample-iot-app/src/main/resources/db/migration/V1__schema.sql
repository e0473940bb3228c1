-- Portable between H2 (the embedded default) and PostgreSQL (the postgres profile): no vendor types,
-- no partial indexes, no upsert syntax; upserts are done by the DAOs as update-then-insert.

CREATE TABLE tenant (
    id           UUID         NOT NULL PRIMARY KEY,
    name         VARCHAR(255) NOT NULL,
    created_time BIGINT       NOT NULL
);

CREATE TABLE device (
    id           UUID         NOT NULL PRIMARY KEY,
    tenant_id    UUID         NOT NULL REFERENCES tenant (id),
    name         VARCHAR(255) NOT NULL,
    type         VARCHAR(255) NOT NULL,
    access_token VARCHAR(64)  NOT NULL,
    created_time BIGINT       NOT NULL,
    version      BIGINT       NOT NULL,
    CONSTRAINT device_access_token_uq UNIQUE (access_token),
    CONSTRAINT device_tenant_name_uq UNIQUE (tenant_id, name)
);

CREATE TABLE rule_chain (
    id            UUID            NOT NULL PRIMARY KEY,
    tenant_id     UUID            NOT NULL REFERENCES tenant (id),
    name          VARCHAR(255)    NOT NULL,
    root          BOOLEAN         NOT NULL,
    configuration VARCHAR(1000000) NOT NULL,
    created_time  BIGINT          NOT NULL,
    updated_time  BIGINT          NOT NULL,
    version       BIGINT          NOT NULL
);
CREATE INDEX rule_chain_tenant_idx ON rule_chain (tenant_id);

-- one row per reading; typed value columns, exactly one of them is set
CREATE TABLE ts_kv (
    device_id UUID             NOT NULL REFERENCES device (id) ON DELETE CASCADE,
    ts_key    VARCHAR(255)     NOT NULL,
    ts        BIGINT           NOT NULL,
    bool_v    BOOLEAN,
    long_v    BIGINT,
    dbl_v     DOUBLE PRECISION,
    str_v     VARCHAR(1000000),
    json_v    VARCHAR(1000000),
    PRIMARY KEY (device_id, ts_key, ts)
);

-- the newest reading per key, so that "latest" is one indexed lookup
CREATE TABLE ts_kv_latest (
    device_id UUID             NOT NULL REFERENCES device (id) ON DELETE CASCADE,
    ts_key    VARCHAR(255)     NOT NULL,
    ts        BIGINT           NOT NULL,
    bool_v    BOOLEAN,
    long_v    BIGINT,
    dbl_v     DOUBLE PRECISION,
    str_v     VARCHAR(1000000),
    json_v    VARCHAR(1000000),
    PRIMARY KEY (device_id, ts_key)
);

CREATE TABLE attribute_kv (
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

-- active_type holds the type while the alarm is active and NULL once cleared: the unique constraint then allows
-- one active alarm per device and type (NULLs never collide), in H2 and PostgreSQL alike
CREATE TABLE alarm (
    id          UUID             NOT NULL PRIMARY KEY,
    tenant_id   UUID             NOT NULL REFERENCES tenant (id),
    device_id   UUID             NOT NULL REFERENCES device (id) ON DELETE CASCADE,
    type        VARCHAR(255)     NOT NULL,
    severity    VARCHAR(32)      NOT NULL,
    status      VARCHAR(16)      NOT NULL,
    start_ts    BIGINT           NOT NULL,
    end_ts      BIGINT           NOT NULL,
    clear_ts    BIGINT,
    details     VARCHAR(1000000),
    active_type VARCHAR(255),
    version     BIGINT           NOT NULL,
    CONSTRAINT alarm_one_active_uq UNIQUE (device_id, active_type)
);
CREATE INDEX alarm_device_status_idx ON alarm (device_id, status);
CREATE INDEX alarm_status_idx ON alarm (status);
