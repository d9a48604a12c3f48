package io.timeservice.web;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

import org.openqa.selenium.Dimension;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Debian's Chromium driven through Debian's chromedriver, both named explicitly so that Selenium Manager (which
 * would try to download a browser or driver) is never invoked. A missing binary fails the test instead of
 * skipping it: a browser test that silently does not run proves nothing.
 */
final class HeadlessChromium implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriverService service;
    private final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriverService service, ChromeDriver driver, Path profile) {
        this.service = service;
        this.driver = driver;
        this.profile = profile;
    }

    static HeadlessChromium start(int width, int height) {
        requireExecutable(CHROMIUM, "chromium");
        requireExecutable(CHROMEDRIVER, "chromium-driver");
        Path profile;
        try {
            profile = Files.createTempDirectory("heap-view-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--user-data-dir=" + profile, "--window-size=" + width + "," + height);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        driver.manage().window().setSize(new Dimension(width, height));
        return new HeadlessChromium(service, driver, profile);
    }

    ChromeDriver driver() {
        return driver;
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
            deleteQuietly(profile);
        }
    }

    private static void requireExecutable(Path binary, String debianPackage) {
        // Fails, never skips: a browser test that silently does not run proves nothing.
        if (!Files.isExecutable(binary)) {
            fail(binary + " is missing (Debian package " + debianPackage + "): the browser test needs Debian's Chromium "
                    + "and chromedriver. Install them with "
                    + "`apt-get update && apt-get install -y chromium chromium-driver` (.ci/run does this on CI).");
        }
    }

    private static void deleteQuietly(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a leftover temp profile is harmless
        }
    }
}
