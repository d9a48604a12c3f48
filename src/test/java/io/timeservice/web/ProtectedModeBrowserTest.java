package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * No token configured, the page opened from another machine: it shows the service's protected-mode explanation in
 * place of the heap. A browser cannot change its own address, so the service runs as behind a reverse proxy
 * ({@code server.forward-headers-strategy=native}, a setting operators use) and Chromium sends the
 * {@code X-Forwarded-For} such a proxy would add.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "server.forward-headers-strategy=native")
class ProtectedModeBrowserTest {

    @LocalServerPort
    int port;

    @Test
    void pageFromAnotherMachine_showsTheProtectedModeExplanation_andTheQueueOnceServed() {
        RestAssured.given().baseUri("http://127.0.0.1").port(port)
                .contentType(ContentType.JSON).body("{\"id\":\"kept-local\",\"delay\":5}")
                .post("/timers").then().statusCode(201);

        try (HeadlessChromium chromium = HeadlessChromium.start(1280, 800)) {
            ChromeDriver driver = chromium.driver();
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30), Duration.ofMillis(50));
            driver.executeCdpCommand("Network.enable", Map.of());
            driver.executeCdpCommand("Network.setExtraHTTPHeaders",
                    Map.of("headers", Map.of("X-Forwarded-For", "203.0.113.7")));
            driver.get("http://127.0.0.1:" + port + "/");

            WebElement refusal = driver.findElement(By.id("refusal"));
            wait.until(ignored -> refusal.isDisplayed());
            assertThat(driver.findElement(By.id("refusal-detail")).getText())
                    .contains("protected mode", "not 203.0.113.7", "TIMESERVICE_SECURITY_WRITE_TOKENS",
                            "timeservice.security.open=true");
            assertThat(driver.findElement(By.id("status-chip")).getDomAttribute("data-state")).isEqualTo("refused");
            assertThat(driver.findElement(By.id("error")).isDisplayed()).as("not repeated in the error box")
                    .isFalse();
            assertThat(driver.findElement(By.cssSelector("details.access")).getDomAttribute("open"))
                    .as("no token form: no token is accepted yet").isNull();
            assertThat(driver.findElements(By.cssSelector("[data-id='kept-local']"))).isEmpty();

            // Now the page comes from the service's own machine: the next refresh shows the queue.
            driver.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of()));
            driver.findElement(By.id("refresh-button")).click();
            wait.until(ignored -> !driver.findElements(By.cssSelector("[data-id='kept-local']")).isEmpty());
            assertThat(refusal.isDisplayed()).isFalse();
            assertThat(driver.findElement(By.id("status-chip")).getDomAttribute("data-state")).isEqualTo("ok");
        }
    }
}
