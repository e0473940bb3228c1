package io.tbactors.sample.iot.storage;

import java.util.Locale;

/**
 * The batched writes of the key-value tables, in the database's own upsert syntax (H2 and PostgreSQL share
 * none). Each statement takes the parameters of {@link KvRow#bind}: device, key, time, five value columns.
 *
 * @param history inserts a history reading, replacing one at the same device, key and time
 * @param historyInsertOnly inserts a history reading and fails on one at the same device, key and time; null where
 *                          the upsert costs no more than an insert. A writer tries it first and falls back to
 *                          {@code history} for a batch that meets a stored reading (H2's MERGE looks each row up
 *                          before it inserts it: a fifth of the history table's write time)
 * @param latest sets a key's latest value unless the stored one is newer
 * @param attribute sets an attribute unless the stored one was updated later
 */
record KvTableSql(String history, String historyInsertOnly, String latest, String attribute) {

    private static final String VALUES = "bool_v, long_v, dbl_v, str_v, json_v";

    /**
     * @param databaseProductName the JDBC driver's database product name
     * @return the statements for that database
     * @throws IllegalStateException for a database other than H2 and PostgreSQL
     */
    static KvTableSql forDatabase(String databaseProductName) {
        String product = String.valueOf(databaseProductName).toLowerCase(Locale.ROOT);
        if (product.contains("postgres")) {
            return new KvTableSql(
                    postgresUpsert("ts_kv", "ts_key", "ts", "device_id, ts_key, ts", false), null,
                    postgresUpsert("ts_kv_latest", "ts_key", "ts", "device_id, ts_key", true),
                    postgresUpsert("attribute_kv", "attribute_key", "last_update_ts", "device_id, attribute_key", true));
        }
        if (product.contains("h2")) {
            return new KvTableSql(
                    "MERGE INTO ts_kv (device_id, ts_key, ts, " + VALUES + ") KEY (device_id, ts_key, ts) "
                            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    "INSERT INTO ts_kv (device_id, ts_key, ts, " + VALUES + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    standardMergeUnlessNewer("ts_kv_latest", "ts_key", "ts"),
                    standardMergeUnlessNewer("attribute_kv", "attribute_key", "last_update_ts"));
        }
        throw new IllegalStateException("Unsupported database '" + databaseProductName + "': the sample app stores "
                + "telemetry in H2 or PostgreSQL");
    }

    private static String postgresUpsert(String table, String keyColumn, String tsColumn, String conflict, boolean unlessNewer) {
        String update = (unlessNewer ? tsColumn + " = EXCLUDED." + tsColumn + ", " : "")
                + "bool_v = EXCLUDED.bool_v, long_v = EXCLUDED.long_v, dbl_v = EXCLUDED.dbl_v, "
                + "str_v = EXCLUDED.str_v, json_v = EXCLUDED.json_v";
        return "INSERT INTO " + table + " (device_id, " + keyColumn + ", " + tsColumn + ", " + VALUES + ") "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (" + conflict + ") DO UPDATE SET " + update
                + (unlessNewer ? " WHERE " + table + "." + tsColumn + " <= EXCLUDED." + tsColumn : "");
    }

    /** The SQL standard's MERGE, with the "not older" test in the update's condition. */
    private static String standardMergeUnlessNewer(String table, String keyColumn, String tsColumn) {
        return "MERGE INTO " + table + " t USING (SELECT CAST(? AS UUID) device_id, CAST(? AS VARCHAR(255)) " + keyColumn
                + ", CAST(? AS BIGINT) " + tsColumn + ", CAST(? AS BOOLEAN) bool_v, CAST(? AS BIGINT) long_v, "
                + "CAST(? AS DOUBLE PRECISION) dbl_v, CAST(? AS VARCHAR(1000000)) str_v, CAST(? AS VARCHAR(1000000)) json_v) s "
                + "ON t.device_id = s.device_id AND t." + keyColumn + " = s." + keyColumn + " "
                + "WHEN MATCHED AND t." + tsColumn + " <= s." + tsColumn + " THEN UPDATE SET " + tsColumn + " = s." + tsColumn
                + ", bool_v = s.bool_v, long_v = s.long_v, dbl_v = s.dbl_v, str_v = s.str_v, json_v = s.json_v "
                + "WHEN NOT MATCHED THEN INSERT (device_id, " + keyColumn + ", " + tsColumn + ", " + VALUES + ") "
                + "VALUES (s.device_id, s." + keyColumn + ", s." + tsColumn + ", s.bool_v, s.long_v, s.dbl_v, s.str_v, s.json_v)";
    }
}
