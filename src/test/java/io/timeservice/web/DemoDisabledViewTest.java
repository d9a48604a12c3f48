package io.timeservice.web;

import java.time.Duration;
import java.util.List;

import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

/** Without the demo profile no page button can wipe the queue: reset is refused and the scenarios are disabled. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DemoDisabledViewTest {

    @LocalServerPort
    int port;

    @Test
    void withoutTheDemoProfile_resetIsRefused_andScenarioButtonsAreDisabledWithAReason() {
        RestAssured.given().baseUri("http://127.0.0.1").port(port).post("/demo/reset").then().statusCode(404)
                .contentType(startsWith("application/problem+json"))
                .body("code", equalTo("demo_disabled"));

        try (HeadlessChromium chromium = HeadlessChromium.start(1280, 800)) {
            ChromeDriver driver = chromium.driver();
            driver.get("http://127.0.0.1:" + port + "/");
            new WebDriverWait(driver, Duration.ofSeconds(30), Duration.ofMillis(50)).until(ignored ->
                    "true".equals(driver.findElement(By.tagName("body")).getDomAttribute("data-ready")));

            List<WebElement> scenarios = driver.findElements(By.cssSelector("#scenarios button"));
            assertThat(scenarios).hasSize(7).allSatisfy(button -> assertThat(button.isEnabled()).isFalse());
            assertThat(driver.findElement(By.id("scenario-note")).getText())
                    .contains("Scenarios are off").contains("--spring.profiles.active=demo");
            assertThat(driver.findElement(By.id("add-form")).findElement(By.tagName("button")).isEnabled())
                    .as("the operations still work on a real queue").isTrue();
        }
    }
}
