package io.tbactors.sample.iot.telemetry;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A portable "write unless a newer value is there": H2 and PostgreSQL share no upsert syntax, so update first and
 * insert when no row matched. The update's condition carries the "not older" test.
 */
final class Upserts {

    private Upserts() {
    }

    /**
     * @param jdbc the database
     * @param updateSql an update that matches the row only when the new value is not older
     * @param updateParams its parameters
     * @param insertSql the insert of a new row
     * @param insertParams its parameters
     */
    static void writeUnlessNewer(JdbcClient jdbc, String updateSql, Object[] updateParams, String insertSql, Object[] insertParams) {
        for (int attempt = 0; attempt < 2; attempt++) {
            if (jdbc.sql(updateSql).params(updateParams).update() > 0) {
                return;
            }
            try {
                jdbc.sql(insertSql).params(insertParams).update();
                return;
            } catch (DuplicateKeyException newerOrConcurrent) {
                // a newer value is there (the next update matches nothing either), or another writer inserted first
            }
        }
    }
}
