package io.timeservice.web;

import org.apache.catalina.Container;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * Puts {@link ProblemErrorReportValve} on Tomcat's host in place of the HTML error valve. Runs after Boot's own
 * customizer (which adds a plain {@link ErrorReportValve}) and names our valve as the host's error valve, so that
 * the host adds no plain one of its own when it starts.
 */
@Component
class ProblemErrorReportValveCustomizer
        implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

    @Override
    public void customize(ConfigurableTomcatWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            Container host = context.getParent();
            Pipeline pipeline = host.getPipeline();
            for (Valve valve : pipeline.getValves()) {
                if (valve instanceof ErrorReportValve) {
                    pipeline.removeValve(valve);
                }
            }
            pipeline.addValve(new ProblemErrorReportValve());
            if (host instanceof StandardHost standardHost) {
                standardHost.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
