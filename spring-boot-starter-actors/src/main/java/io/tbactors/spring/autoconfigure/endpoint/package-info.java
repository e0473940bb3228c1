/**
 * Auto-configuration of the actor system's actuator endpoints.
 */
@NullMarked
package io.tbactors.spring.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
