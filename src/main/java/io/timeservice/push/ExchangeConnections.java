package io.timeservice.push;

import java.io.InterruptedIOException;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import org.apache.hc.client5.http.EndpointInfo;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.nio.AsyncClientConnectionManager;
import org.apache.hc.client5.http.nio.AsyncConnectionEndpoint;
import org.apache.hc.core5.concurrent.ComplexFuture;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.nio.AsyncClientExchangeHandler;
import org.apache.hc.core5.http.nio.AsyncPushConsumer;
import org.apache.hc.core5.http.nio.HandlerFactory;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.ConnectionInitiator;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The connection pool as the push client sees it: each connection it hands out tells the {@link PushExchange} it
 * carries (found in the exchange's context) which connection that is, so the exchange's end can close exactly that
 * connection. Apache HttpClient 5's minimal client cannot do it itself: cancelling its future after the request left
 * cancels nothing, and the exchange goes on as long as the target sends a byte now and then.
 *
 * <p>Everything else is the pool's: the wrapped connections are unwrapped on their way back. Thread-safe as the pool.
 */
final class ExchangeConnections implements AsyncClientConnectionManager {

    /** The context attribute that holds an exchange's {@link PushExchange}. */
    static final String EXCHANGE = PushExchange.class.getName();

    private final PoolingAsyncClientConnectionManager pool;

    ExchangeConnections(PoolingAsyncClientConnectionManager pool) {
        this.pool = pool;
    }

    PoolingAsyncClientConnectionManager pool() {
        return pool;
    }

    @Override
    public Future<AsyncConnectionEndpoint> lease(String id, HttpRoute route, Object state, Timeout requestTimeout,
                                                 FutureCallback<AsyncConnectionEndpoint> callback) {
        return relayed(callback, Carrier::new, relay -> pool.lease(id, route, state, requestTimeout, relay));
    }

    @Override
    public void release(AsyncConnectionEndpoint endpoint, Object newState, TimeValue validDuration) {
        pool.release(unwrap(endpoint), newState, validDuration);
    }

    @Override
    public Future<AsyncConnectionEndpoint> connect(AsyncConnectionEndpoint endpoint,
                                                   ConnectionInitiator connectionInitiator, Timeout connectTimeout,
                                                   Object attachment, HttpContext context,
                                                   FutureCallback<AsyncConnectionEndpoint> callback) {
        return relayed(callback, connected -> endpoint, relay -> pool.connect(unwrap(endpoint), connectionInitiator,
                connectTimeout, attachment, context, relay));
    }

    @Override
    public void upgrade(AsyncConnectionEndpoint endpoint, Object attachment, HttpContext context) {
        pool.upgrade(unwrap(endpoint), attachment, context);
    }

    @Override
    public void close(CloseMode closeMode) {
        pool.close(closeMode);
    }

    @Override
    public void close() {
        pool.close();
    }

    /**
     * Calls the pool with a callback that completes the returned future with {@code as} of the pool's connection (a
     * failure or cancellation as it is); cancelling the returned future cancels the pool's.
     */
    private static Future<AsyncConnectionEndpoint> relayed(
            FutureCallback<AsyncConnectionEndpoint> callback, UnaryOperator<AsyncConnectionEndpoint> as,
            Function<FutureCallback<AsyncConnectionEndpoint>, Future<AsyncConnectionEndpoint>> call) {
        ComplexFuture<AsyncConnectionEndpoint> result = new ComplexFuture<>(callback);
        result.setDependency(call.apply(new FutureCallback<>() {
            @Override
            public void completed(AsyncConnectionEndpoint endpoint) {
                result.completed(as.apply(endpoint));
            }

            @Override
            public void failed(Exception failure) {
                result.failed(failure);
            }

            @Override
            public void cancelled() {
                result.cancel();
            }
        }));
        return result;
    }

    private static AsyncConnectionEndpoint unwrap(AsyncConnectionEndpoint endpoint) {
        return endpoint instanceof Carrier carrier ? carrier.connection : endpoint;
    }

    /** A pooled connection that names itself to the exchange it carries. */
    private static final class Carrier extends AsyncConnectionEndpoint {

        final AsyncConnectionEndpoint connection;

        Carrier(AsyncConnectionEndpoint connection) {
            this.connection = connection;
        }

        @Override
        public void execute(String id, AsyncClientExchangeHandler exchangeHandler,
                            HandlerFactory<AsyncPushConsumer> pushHandlerFactory, HttpContext context) {
            if (context.getAttribute(EXCHANGE) instanceof PushExchange exchange
                    && !exchange.carriedBy(connection)) {
                // ended (its deadline) between the lease and now: not sent; failing it discards the connection
                exchangeHandler.failed(new InterruptedIOException("the attempt ended before it was sent"));
                return;
            }
            try {
                connection.execute(id, exchangeHandler, pushHandlerFactory, context);
            } catch (RuntimeException closedMeanwhile) {
                exchangeHandler.failed(closedMeanwhile);
            }
        }

        @Override
        public boolean isConnected() {
            return connection.isConnected();
        }

        @Override
        public void setSocketTimeout(Timeout timeout) {
            connection.setSocketTimeout(timeout);
        }

        @Override
        public void close(CloseMode closeMode) {
            connection.close(closeMode);
        }

        @Override
        public EndpointInfo getInfo() {
            return connection.getInfo();
        }
    }
}
