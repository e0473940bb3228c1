/**
 * Auto-configuration of the actor system's meters.
 */
@NullMarked
package io.tbactors.spring.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
