/**
 * Testing a Spring Boot application's actors: {@link io.tbactors.testkit.spring.AutoConfigureTbActors}.
 */
@NullMarked
package io.tbactors.testkit.spring;

import org.jspecify.annotations.NullMarked;
