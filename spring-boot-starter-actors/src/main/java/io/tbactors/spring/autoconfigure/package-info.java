/**
 * Auto-configuration of the actor system and its {@code tb.actors.*} properties.
 */
@NullMarked
package io.tbactors.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
