package io.timeservice.web;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.http.Header;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

/**
 * Checks every response that a REST test receives against {@code openapi.yaml}, and fails the test at once when
 * the service and the contract disagree (see {@link OpenApiContract#violations(OpenApiContract.Exchange)}).
 */
final class ContractFilter implements Filter {

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification responseSpec,
                           FilterContext context) {
        Response response = context.next(request, responseSpec);
        List<String> violations = OpenApiContract.INSTANCE.violations(exchange(request, response));
        if (!violations.isEmpty()) {
            throw new AssertionError("the response breaks openapi.yaml:\n  " + String.join("\n  ", violations));
        }
        return response;
    }

    static OpenApiContract.Exchange exchange(FilterableRequestSpecification request, Response response) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : response.getHeaders()) {
            headers.merge(header.getName(), header.getValue(), (first, next) -> first + ", " + next);
        }
        Object body = request.getBody();
        return new OpenApiContract.Exchange(request.getMethod(), URI.create(request.getURI()).getRawPath(),
                request.getContentType(), body == null ? null : body.toString(), response.getStatusCode(),
                response.getContentType(), headers, response.asString());
    }
}
