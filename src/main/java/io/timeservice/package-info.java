/**
 * TimeService: a REST timer-scheduling service. {@code TimeServiceApplication} starts Spring Boot; everything else
 * lives in the packages below it. The package map, with what each package may import, is in docs/DESIGN.md and is
 * enforced by {@code PackageMapTest}.
 */
package io.timeservice;
