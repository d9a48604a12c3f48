/**
 * The client README's worked examples, kept as code that compiles and is tested: each class here is the code under
 * test of one example (trial reminders on absolute times, a quick start, nightly backups on a Berlin cron schedule),
 * and its test in this module drives it on a virtual clock of the test kit. Imports the client only.
 */
package io.timeservice.examples;
