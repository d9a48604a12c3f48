/**
 * A JUnit Jupiter extension for tests of code that schedules timers on TimeService: {@link
 * io.timeservice.testkit.TimeServiceExtension} gives each test a fresh virtual clock of its own, deleted after the
 * test ({@link io.timeservice.testkit.TestClocks} makes forks, loaded snapshots and more clocks, deleted too), and
 * starts a TimeService from its jar for the test run when none is named.
 */
package io.timeservice.testkit;
