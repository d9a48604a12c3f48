package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The README's five-minute tour, run as written: every {@code curl} command of the tour's shell blocks is sent to the
 * service in order (host and port replaced), and the answer it documents is checked — the status where the comment
 * names one, and every {@code "member":value} pair the comment shows (pairs with an elided value, {@code …}, are
 * skipped). A claim token shown elided is the one the previous claim answered. So the tour cannot drift from the
 * service.
 */
class ReadmeTourTest extends RestTestSupport {

    private static final Pattern PAIR = Pattern.compile("\"(\\w+)\":(\"[^\"]*\"|-?\\d+|true|false|null)");
    private static final Pattern STATUS = Pattern.compile("^#?\\s*\\(?(\\d{3})\\b");
    private static final Pattern CLAIM = Pattern.compile("\"claim\":\"([^\"]+)\"");

    @AfterEach
    void removeTourClocks() {
        deleteClocksButDefault();
    }

    @Test
    void theTour_answersAsTheReadmeShows() throws IOException {
        List<Step> steps = tourSteps();
        assertThat(steps).as("the tour's curl commands").hasSizeGreaterThanOrEqualTo(10);
        String lastClaim = null;
        for (Step step : steps) {
            Curl curl = Curl.parse(step.command());
            String body = curl.data() == null || lastClaim == null ? curl.data()
                    : curl.data().replace("\"claim\":\"Yq…\"", "\"claim\":\"" + lastClaim + "\"");
            RequestSpecification request = given();
            if (body != null) {
                request = request.contentType("application/json").body(body);
            }
            Response answer = request.request(curl.method(), curl.path());
            String text = answer.asString();
            for (String expected : step.expected()) {
                Matcher status = STATUS.matcher(expected.trim());
                if (status.find()) {
                    assertThat(answer.statusCode()).as("%s answers %s", step.command(), status.group(1))
                            .isEqualTo(Integer.parseInt(status.group(1)));
                }
                Matcher pair = PAIR.matcher(expected);
                while (pair.find()) {
                    if (!pair.group(2).contains("…")) {
                        assertThat(text).as("%s answers %s", step.command(), pair.group())
                                .contains(pair.group());
                    }
                }
            }
            Matcher claim = CLAIM.matcher(text);
            if (claim.find()) {
                lastClaim = claim.group(1);
            }
        }
    }

    /** One command of the tour and the comments that document its answer (trailing and following lines). */
    record Step(String command, List<String> expected) {
    }

    private static List<Step> tourSteps() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        int start = readme.indexOf("## A five-minute tour");
        assertThat(start).as("the README has its tour").isNotNegative();
        String tour = readme.substring(start, readme.indexOf("\n## ", start + 1));
        List<Step> steps = new ArrayList<>();
        Matcher block = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL).matcher(tour);
        while (block.find()) {
            StringBuilder command = null;
            List<String> expected = null;
            for (String line : block.group(1).split("\\n")) {
                if (command != null && command.toString().endsWith("\\")) {
                    command.setLength(command.length() - 1);
                    command.append(' ').append(line.strip());
                    continue;
                }
                if (command != null && openQuote(command)) {
                    command.append('\n').append(line);
                    continue;
                }
                if (line.startsWith("curl ")) {
                    if (command != null) {
                        steps.add(step(command.toString(), expected));
                    }
                    command = new StringBuilder(line.strip());
                    expected = new ArrayList<>();
                } else if (line.startsWith("#") && expected != null) {
                    expected.add(line.substring(1));
                }
            }
            if (command != null) {
                steps.add(step(command.toString(), expected));
            }
        }
        return steps;
    }

    /** Splits a trailing comment off the command: it documents the answer too. */
    private static Step step(String command, List<String> expected) {
        int comment = command.lastIndexOf("  #");
        if (comment > 0 && !openQuoteAt(command, comment)) {
            expected.add(0, command.substring(comment + 3));
            command = command.substring(0, comment).strip();
        }
        return new Step(command, expected);
    }

    private static boolean openQuote(CharSequence text) {
        return openQuoteAt(text, text.length());
    }

    private static boolean openQuoteAt(CharSequence text, int end) {
        int quotes = 0;
        for (int i = 0; i < end; i++) {
            quotes += text.charAt(i) == '\'' ? 1 : 0;
        }
        return quotes % 2 == 1;
    }

    /** The parts of a curl command the tour uses: {@code -X}, {@code -H} (ignored: JSON is sent as JSON), {@code -d}. */
    record Curl(String method, String path, String data) {

        static Curl parse(String command) {
            List<String> words = new ArrayList<>();
            StringBuilder word = new StringBuilder();
            boolean quoted = false;
            boolean any = false;
            for (char c : command.toCharArray()) {
                if (c == '\'') {
                    quoted = !quoted;
                    any = true;
                } else if (Character.isWhitespace(c) && !quoted) {
                    if (any) {
                        words.add(word.toString());
                        word.setLength(0);
                        any = false;
                    }
                } else {
                    word.append(c);
                    any = true;
                }
            }
            if (any) {
                words.add(word.toString());
            }
            String method = null;
            String url = null;
            String data = null;
            for (int i = 1; i < words.size(); i++) {
                switch (words.get(i)) {
                    case "-X" -> method = words.get(++i);
                    case "-H" -> i++;
                    case "-d" -> data = words.get(++i);
                    default -> url = words.get(i);
                }
            }
            assertThat(url).as("the URL of %s", command).startsWith("localhost:8080/");
            return new Curl(method != null ? method : data != null ? "POST" : "GET",
                    url.substring("localhost:8080".length()), data);
        }
    }
}
