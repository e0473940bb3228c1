package io.tbactors.core.readme;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;

/** The back-pressure fragment of tb-actor-core's README. */
final class BackPressureExample {

    private BackPressureExample() {
    }

    /** @return the HTTP status a device API answers a reading with */
    static int post(TbActorRef deviceRef, TbActorMsg msg) {
        // example: try-tell
        if (!deviceRef.tryTell(msg)) {
            return 429;   // Too Many Requests, with Retry-After: what the sample app answers
        }
        // end example
        return 200;
    }
}
