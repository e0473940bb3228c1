/**
 * Auto-configuration of the actor system's health indicator.
 */
@NullMarked
package io.tbactors.spring.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
