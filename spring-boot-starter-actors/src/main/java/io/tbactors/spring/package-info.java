/**
 * The starter's runtime API: {@link io.tbactors.spring.ActorSystemContext}, the root actor declaration, lifecycle and events.
 */
@NullMarked
package io.tbactors.spring;

import org.jspecify.annotations.NullMarked;
