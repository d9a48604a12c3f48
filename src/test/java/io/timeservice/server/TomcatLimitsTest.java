package io.timeservice.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/** The limits in application.properties reach the running connector (a typo in a property name would not). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TomcatLimitsTest {

    @Autowired
    WebServerApplicationContext context;

    @Test
    void connector_runsWithTheDocumentedLimits() {
        Connector connector = ((TomcatWebServer) context.getWebServer()).getTomcat().getConnector();
        AbstractHttp11Protocol<?> http = (AbstractHttp11Protocol<?>) connector.getProtocolHandler();
        assertThat(http.getMaxThreads()).isEqualTo(64);
        assertThat(http.getMinSpareThreads()).isEqualTo(8);
        assertThat(http.getAcceptCount()).isEqualTo(100);
        assertThat(http.getMaxConnections()).isEqualTo(2048);
        assertThat(http.getConnectionTimeout()).isEqualTo(10_000);
        assertThat(http.getKeepAliveTimeout()).isEqualTo(20_000);
        assertThat(http.getMaxKeepAliveRequests()).isEqualTo(100);
        assertThat(http.getMaxHttpRequestHeaderSize()).isEqualTo(8 * 1024);
        assertThat(http.getMaxSwallowSize()).isEqualTo(2 * 1024 * 1024);
        assertThat(connector.getMaxPostSize()).isEqualTo(64 * 1024);
        assertThat(context.getEnvironment().getProperty("server.shutdown")).isEqualTo("graceful");
        assertThat(context.getEnvironment().getProperty("spring.lifecycle.timeout-per-shutdown-phase"))
                .isEqualTo("20s");
    }
}
