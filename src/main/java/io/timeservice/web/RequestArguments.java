package io.timeservice.web;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Resolves {@link ClockVariable} and {@link TraceFlag} arguments. Spring MVC's {@code @PathVariable} and
 * {@code @RequestParam} create a data binder for every argument of every request, even for a String that needs no
 * conversion; on {@code POST /timers} the two binders were 1.7% of the service's CPU (docs/BENCHMARKS.md).
 */
@Configuration(proxyBeanMethods = false)
class RequestArguments implements WebMvcConfigurer {

    static final String TRACE = "trace";
    static final String CLOCK = "clock";

    /** Spring's own String-to-boolean values, compared ignoring case after trimming. */
    private static final Set<String> TRUE_VALUES = Set.of("true", "on", "yes", "1");
    private static final Set<String> FALSE_VALUES = Set.of("false", "off", "no", "0");

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new BinderFreeResolver());
    }

    /**
     * The trace flag's value: absent, empty or blank is false; otherwise the values Spring converts to a boolean.
     *
     * @throws ApiProblem {@code invalid_request} for any other value, as Spring's type mismatch is answered
     */
    static boolean traceFlag(String value) {
        String trimmed = value == null ? "" : value.trim();
        if (trimmed.isEmpty()) {
            return false;
        }
        String lower = trimmed.toLowerCase(Locale.ROOT);
        if (TRUE_VALUES.contains(lower)) {
            return true;
        }
        if (FALSE_VALUES.contains(lower)) {
            return false;
        }
        throw new ApiProblem(ProblemType.INVALID_REQUEST, Problems.invalidParameter(TRACE));
    }

    /** One resolver for both: the annotation says which, and neither needs a binder. */
    private static final class BinderFreeResolver implements HandlerMethodArgumentResolver {

        @Override
        public boolean supportsParameter(MethodParameter parameter) {
            Class<?> type = parameter.getParameterType();
            return parameter.hasParameterAnnotation(ClockVariable.class) ? type == String.class
                    : parameter.hasParameterAnnotation(TraceFlag.class) && type == boolean.class;
        }

        @Override
        public Object resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
                                      NativeWebRequest request, WebDataBinderFactory binderFactory) {
            if (parameter.hasParameterAnnotation(TraceFlag.class)) {
                return traceFlag(request.getParameter(TRACE));
            }
            @SuppressWarnings("unchecked")
            Map<String, String> variables = (Map<String, String>) request.getAttribute(
                    HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
            return variables == null ? null : variables.get(CLOCK);
        }
    }
}
