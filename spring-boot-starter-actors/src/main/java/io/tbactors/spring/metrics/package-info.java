/**
 * Micrometer meters of the actor system.
 */
@NullMarked
package io.tbactors.spring.metrics;

import org.jspecify.annotations.NullMarked;
