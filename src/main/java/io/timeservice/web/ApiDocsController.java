package io.timeservice.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.webjars.WebJarVersionLocator;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Serves {@code openapi.yaml}, the API contract at the repository root (bundled as {@value #CONTRACT}), as it is:
 * the yaml at {@code /v3/api-docs.yaml} and the same document as JSON at {@code /v3/api-docs}, which Swagger UI (the
 * plain webjar, at {@code /swagger-ui/index.html}) shows. Nothing is generated from the controllers, so the document
 * says exactly what the yaml says. Read once at start-up: a missing or unparseable contract stops the service.
 */
@RestController
class ApiDocsController {

    static final String CONTRACT = "contract/openapi.yaml";
    static final String JSON_PATH = "/v3/api-docs";
    /** What springdoc answered for the yaml form, the media type registered for OpenAPI documents. */
    static final String OPENAPI_YAML = "application/vnd.oai.openapi";

    private final byte[] yaml;
    private final byte[] json;

    ApiDocsController() {
        this.yaml = readContract();
        try {
            this.json = JsonMapper.shared().writeValueAsBytes(new YAMLMapper().readTree(yaml));
        } catch (JacksonException e) {
            throw new IllegalStateException("the API contract " + CONTRACT + " is not valid YAML", e);
        }
    }

    @GetMapping(path = JSON_PATH, produces = MediaType.APPLICATION_JSON_VALUE)
    byte[] json() {
        return json;
    }

    @GetMapping(path = JSON_PATH + ".yaml", produces = OPENAPI_YAML)
    byte[] yaml() {
        return yaml;
    }

    /** Where Swagger UI finds the document (read by {@code swagger-ui/swagger-initializer.js}). */
    @GetMapping(path = JSON_PATH + "/swagger-config", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, String> swaggerConfig() {
        return Map.of("configUrl", JSON_PATH + "/swagger-config", "url", JSON_PATH, "validatorUrl", "");
    }

    /** Springdoc's old address of the UI; a relative {@code Location}, as springdoc sent. */
    @GetMapping("/swagger-ui.html")
    ResponseEntity<Void> swaggerUiHtml() {
        return ResponseEntity.status(HttpStatus.FOUND).header(HttpHeaders.LOCATION, "/swagger-ui/index.html").build();
    }

    private static byte[] readContract() {
        try (InputStream in = new ClassPathResource(CONTRACT).getInputStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("the API contract " + CONTRACT + " is missing from the classpath", e);
        }
    }

    /**
     * Swagger UI from its webjar at {@code /swagger-ui/}, with our {@code swagger-initializer.js} in front of the
     * webjar's (which would show a sample API).
     */
    @Configuration(proxyBeanMethods = false)
    static class SwaggerUi implements WebMvcConfigurer {

        @Override
        public void addResourceHandlers(ResourceHandlerRegistry registry) {
            String version = new WebJarVersionLocator().version("swagger-ui");
            if (version == null) {
                throw new IllegalStateException("the swagger-ui webjar is missing from the classpath");
            }
            registry.addResourceHandler("/swagger-ui/**").addResourceLocations("classpath:/swagger-ui/",
                    "classpath:/META-INF/resources/webjars/swagger-ui/" + version + "/");
        }
    }
}
