/**
 * Testing actors: probes, a deterministic dispatcher and clock, and a JUnit 5 extension.
 */
@NullMarked
package io.tbactors.testkit;

import org.jspecify.annotations.NullMarked;
