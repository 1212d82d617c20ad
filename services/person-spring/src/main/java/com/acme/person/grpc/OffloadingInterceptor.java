package com.acme.person.grpc;

import com.acme.person.auth.TokenValidator;
import com.acme.person.config.PersonProperties;
import com.acme.person.error.ErrorMapper;
import com.acme.person.v1.PersonServiceGrpc;
import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.annotation.Order;
import org.springframework.grpc.server.GlobalServerInterceptor;
import org.springframework.stereotype.Component;

/**
 * Where a call runs. The server runs every call on its transport threads (directExecutor:
 * GrpcTransportConfig) — handing each call to a pool, a thread woken for it and another for its
 * answer, made gRPC slower than the REST twin (GetPerson: 17,000 calls/s at 50 concurrent
 * callers through a pool, 30,700 in place; h2load, the service on the host, 2 cores). But a
 * transport thread serves many connections, and must never wait on another process. So this
 * interceptor, right after decoding, moves a PersonService call to the pool when it might wait:
 * when its token has no cached answer (checking it calls the auth service) or when the database
 * is not embedded (person.grpc.inline-calls is off for PostgreSQL). Then every later event of
 * the call runs there too, in order, in the call's context; a slow auth service or database
 * holds up pool threads, never the transport.
 */
@Component
@GlobalServerInterceptor
@Order(InterceptorOrder.OFFLOADING)
public class OffloadingInterceptor implements ServerInterceptor {

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final TokenValidator tokens;
  private final ErrorMapper errors;
  private final Executor pool;
  private final boolean inline;

  public OffloadingInterceptor(
      TokenValidator tokens,
      ErrorMapper errors,
      @Qualifier("grpcCallPool") Executor pool,
      PersonProperties properties) {
    this.tokens = tokens;
    this.errors = errors;
    this.pool = pool;
    this.inline = properties.grpc().inlineCalls();
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    boolean person = PersonServiceGrpc.SERVICE_NAME.equals(call.getMethodDescriptor().getServiceName());
    if (!person || (inline && tokens.isCached(headers.get(AUTHORIZATION)))) {
      return next.startCall(call, headers);
    }
    ClosingOnceServerCall<ReqT, RespT> guarded = new ClosingOnceServerCall<>(call);
    Offloaded<ReqT> offloaded = new Offloaded<>(guarded, MoreExecutors.newSequentialExecutor(pool), Context.current());
    offloaded.start(() -> next.startCall(guarded, headers));
    return offloaded;
  }

  /**
   * A call's listener whose every event runs on the pool, one after the other, in the call's
   * context. An exception there ends the call with ErrorMapper's status and cancels the handler,
   * as DecodingInterceptor does on the transport thread.
   */
  private final class Offloaded<ReqT> extends ServerCall.Listener<ReqT> {
    private final ClosingOnceServerCall<ReqT, ?> call;
    private final Executor serial;
    private final Context context;
    // Touched only by the tasks of serial, one at a time.
    private ServerCall.Listener<ReqT> handler;
    private boolean refused;

    Offloaded(ClosingOnceServerCall<ReqT, ?> call, Executor serial, Context context) {
      this.call = call;
      this.serial = serial;
      this.context = context;
    }

    void start(Supplier<ServerCall.Listener<ReqT>> startCall) {
      serial.execute(context.wrap(() -> {
        try {
          handler = startCall.get();
        } catch (RuntimeException e) {
          refuse(e);
        }
      }));
    }

    private void refuse(RuntimeException e) {
      refused = true;
      StatusRuntimeException status = errors.toGrpc(e);
      call.close(status.getStatus(), status.getTrailers() == null ? new Metadata() : status.getTrailers());
    }

    /** Runs event on the pool, unless the call was refused (or, skipWhenClosed, is over). */
    private void run(Consumer<ServerCall.Listener<ReqT>> event, boolean skipWhenClosed) {
      serial.execute(context.wrap(() -> {
        if (refused || handler == null || (skipWhenClosed && call.isClosed())) {
          return;
        }
        try {
          event.accept(handler);
        } catch (RuntimeException e) {
          refuse(e);
          handler.onCancel();
        }
      }));
    }

    @Override
    public void onMessage(ReqT message) {
      run(h -> h.onMessage(message), true);
    }

    @Override
    public void onHalfClose() {
      run(ServerCall.Listener::onHalfClose, true);
    }

    @Override
    public void onCancel() {
      run(ServerCall.Listener::onCancel, false);
    }

    @Override
    public void onComplete() {
      run(ServerCall.Listener::onComplete, false);
    }

    @Override
    public void onReady() {
      run(ServerCall.Listener::onReady, true);
    }
  }
}
