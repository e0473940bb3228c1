/**
 * Actuator health indicator and endpoints of the actor system.
 */
@NullMarked
package io.tbactors.spring.actuate;

import org.jspecify.annotations.NullMarked;
