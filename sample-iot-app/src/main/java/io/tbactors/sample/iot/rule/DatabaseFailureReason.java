package io.tbactors.sample.iot.rule;

import io.tbactors.rule.RuleNodeFailureReason;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * The reason of a node's failure that a sender may read (it reaches the device API's 500): for a database failure
 * the database's own message, without the SQL that Spring's message carries.
 */
@Component
public class DatabaseFailureReason implements RuleNodeFailureReason {

    @Override
    public String reason(Throwable failure) {
        if (failure instanceof DataAccessException dataAccess) {
            String message = String.valueOf(dataAccess.getMostSpecificCause().getMessage());
            int sql = message.indexOf("; SQL statement:");
            return sql >= 0 ? message.substring(0, sql) : message;
        }
        return failure.getMessage();
    }
}
