/**
 * Trace-context propagation across a tell.
 */
@NullMarked
package io.tbactors.spring.tracing;

import org.jspecify.annotations.NullMarked;
