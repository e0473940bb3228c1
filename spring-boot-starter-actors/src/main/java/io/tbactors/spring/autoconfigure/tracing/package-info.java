/**
 * Auto-configuration of trace-context propagation.
 */
@NullMarked
package io.tbactors.spring.autoconfigure.tracing;

import org.jspecify.annotations.NullMarked;
