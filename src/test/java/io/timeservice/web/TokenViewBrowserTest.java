package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** With tokens configured, the page asks for one when the API answers 401, and works once it has it. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "timeservice.security.read-tokens=" + TokenViewBrowserTest.READ_TOKEN,
        "timeservice.security.write-tokens=" + TokenViewBrowserTest.WRITE_TOKEN})
class TokenViewBrowserTest {

    static final String WRITE_TOKEN = "heap-view-write-token-0123456789";
    /** Unused here: the console's read-only test runs in this same context (the same properties). */
    static final String READ_TOKEN = "heap-view-read-token-0123456789ab";

    @LocalServerPort
    int port;

    @Test
    void aProtectedService_makesThePageAskForAToken_andShowTheQueueOnceGiven() {
        RestAssured.given().baseUri("http://127.0.0.1").port(port)
                .header("Authorization", "Bearer " + WRITE_TOKEN)
                .contentType(ContentType.JSON).body("{\"id\":\"behind-token\",\"delay\":5}")
                .post("/timers").then().statusCode(201);

        try (HeadlessChromium chromium = HeadlessChromium.start(1280, 800)) {
            ChromeDriver driver = chromium.driver();
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30), Duration.ofMillis(50));
            driver.get("http://127.0.0.1:" + port + "/");

            WebElement access = driver.findElement(By.cssSelector("details.access"));
            wait.until(ignored -> access.getDomAttribute("open") != null);
            assertThat(driver.findElements(By.cssSelector("[data-id='behind-token']")))
                    .as("nothing of the queue is shown without a token").isEmpty();

            WebElement tokenInput = access.findElement(By.name("token"));
            tokenInput.sendKeys(WRITE_TOKEN);
            tokenInput.submit();

            wait.until(ignored -> !driver.findElements(By.cssSelector("[data-id='behind-token']")).isEmpty());
        }
    }
}
