package io.timeservice.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import io.swagger.v3.core.util.Yaml31;
import io.swagger.v3.oas.models.OpenAPI;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;

/**
 * Makes {@code openapi.yaml}, the API contract at the repository root (bundled as {@value #CONTRACT}), the document
 * that springdoc serves at {@code /v3/api-docs} and that Swagger UI shows. Every top-level part of the document that
 * springdoc generated from the controllers is replaced by the contract's, so no annotation-derived operation or
 * schema leaks in and the served document says exactly what the yaml says.
 *
 * <p>The yaml is read once at start-up, so a missing or unparseable contract stops the service from starting; it is
 * parsed afresh whenever springdoc builds its document, so springdoc never shares model objects across builds.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiContractConfiguration {

    static final String CONTRACT = "contract/openapi.yaml";

    @Bean
    OpenApiCustomizer openApiContract() {
        String yaml = readContract();
        parse(yaml); // fail at start-up, not on the first request for the document
        return served -> {
            OpenAPI contract = parse(yaml);
            served.setOpenapi(contract.getOpenapi());
            served.setInfo(contract.getInfo());
            served.setJsonSchemaDialect(contract.getJsonSchemaDialect());
            served.setServers(contract.getServers());
            served.setSecurity(contract.getSecurity());
            served.setTags(contract.getTags());
            served.setPaths(contract.getPaths());
            served.setWebhooks(contract.getWebhooks());
            served.setComponents(contract.getComponents());
            served.setExternalDocs(contract.getExternalDocs());
            served.setExtensions(contract.getExtensions());
        };
    }

    private static String readContract() {
        try (InputStream in = new ClassPathResource(CONTRACT).getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the API contract " + CONTRACT + " is missing from the classpath", e);
        }
    }

    private static OpenAPI parse(String yaml) {
        try {
            return Yaml31.mapper().readValue(yaml, OpenAPI.class);
        } catch (IOException e) {
            throw new IllegalStateException("the API contract " + CONTRACT + " is not a valid OpenAPI document", e);
        }
    }
}
