package io.timeservice.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

import io.timeservice.Executables;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium driven through its chromedriver, both named explicitly so that Selenium Manager (which would
 * try to download a browser or driver) is never invoked: {@code CHROMIUM_BINARY} and {@code CHROMEDRIVER_BINARY} if
 * set, otherwise found on PATH, as {@code ./test} finds them. A missing binary fails the test instead of skipping
 * it: a browser test that silently does not run proves nothing.
 */
final class HeadlessChromium implements AutoCloseable {

    private static final String BROWSER_TESTS_NEED =
            "the browser tests need Chromium and chromedriver (Debian packages chromium chromium-driver)";

    private final ChromeDriverService service;
    private final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriverService service, ChromeDriver driver, Path profile) {
        this.service = service;
        this.driver = driver;
        this.profile = profile;
    }

    static HeadlessChromium start(int width, int height) {
        Path chromium = Executables.find("CHROMIUM_BINARY", BROWSER_TESTS_NEED, "chromium", "chromium-browser");
        Path chromedriver = Executables.find("CHROMEDRIVER_BINARY", BROWSER_TESTS_NEED, "chromedriver",
                "chromium.chromedriver");
        Path profile;
        try {
            profile = Files.createTempDirectory("heap-view-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--user-data-dir=" + profile, "--window-size=" + width + "," + height);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver.toFile())
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

    private static void deleteQuietly(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a leftover temp profile is harmless
        }
    }
}
