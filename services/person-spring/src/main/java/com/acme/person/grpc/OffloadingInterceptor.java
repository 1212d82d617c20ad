package com.acme.person.grpc;

import com.acme.person.auth.Caller;
import com.acme.person.auth.TokenValidator;
import com.acme.person.config.PersonProperties;
import com.acme.person.error.ErrorMapper;
import com.acme.person.v1.PersonServiceGrpc;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.protobuf.MessageLite;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
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
 * is not embedded (person.grpc.inline-calls is off for PostgreSQL). A call that starts inline
 * moves too when a request message is larger than person.grpc.inline-max-message-size: storing
 * 1 MB people one after the other on the thread of their connection served 33 RegisterPerson
 * calls/s at 100 due per second, the pool 82 (ghz, 1 MB requests, one connection). Such calls
 * go to a small pool of their own (grpcLargeCallPool), so their memory stays bounded. Once moved,
 * every later event of the call runs on the pool, in order, in the call's context; a slow auth
 * service, database or large request holds up pool threads, never the transport.
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
  private final Executor largePool;
  private final boolean inline;
  private final long inlineMaxMessageBytes;
  private final int maxLargeCalls;
  private final Semaphore largeCalls;

  public OffloadingInterceptor(
      TokenValidator tokens,
      ErrorMapper errors,
      @Qualifier("grpcCallPool") Executor pool,
      @Qualifier("grpcLargeCallPool") Executor largePool,
      PersonProperties properties) {
    this.largePool = largePool;
    this.tokens = tokens;
    this.errors = errors;
    this.pool = pool;
    this.inline = properties.grpc().inlineCalls();
    this.inlineMaxMessageBytes = properties.grpc().inlineMaxMessageSize().toBytes();
    this.maxLargeCalls = properties.limits().largeRequestsInFlight();
    this.largeCalls = new Semaphore(maxLargeCalls);
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    boolean person = PersonServiceGrpc.SERVICE_NAME.equals(call.getMethodDescriptor().getServiceName());
    if (!person) {
      return next.startCall(call, headers);
    }
    Caller cached = inline ? tokens.cachedCaller(headers.get(AUTHORIZATION)) : null;
    boolean pooled = cached == null;
    // Inline, AuthInterceptor takes this very answer (see AuthInterceptor.CACHED_CALLER).
    Context context = pooled ? Context.current() : Context.current().withValue(AuthInterceptor.CACHED_CALLER, cached);
    ClosingOnceServerCall<ReqT, RespT> guarded = new ClosingOnceServerCall<>(call);
    Offloaded<ReqT> offloaded =
        new Offloaded<>(guarded, MoreExecutors.newSequentialExecutor(pool), context, pooled);
    offloaded.start(() -> next.startCall(guarded, headers));
    return offloaded;
  }

  /**
   * A call's listener whose events run where the transport delivers them until the call is
   * pooled — from its start, or from its first large message — and from then on on the pool,
   * one after the other, in the call's context. An exception ends the call with ErrorMapper's
   * status and cancels the handler, as DecodingInterceptor does on the transport thread.
   */
  private final class Offloaded<ReqT> extends ServerCall.Listener<ReqT> implements OrderedListener {
    private final ClosingOnceServerCall<ReqT, ?> call;
    // Set before the first task is submitted to it; read and written by the transport thread.
    private Executor serial;
    private final Context context;
    // Touched by one thread at a time: the transport's until pooled, then serial's tasks
    // (each submitted by the transport thread after its last inline use).
    private ServerCall.Listener<ReqT> handler;
    private boolean refused;
    // Only the transport thread reads and writes these: every event arrives there.
    private boolean pooled;
    private boolean holdsLargeCallPermit;

    Offloaded(ClosingOnceServerCall<ReqT, ?> call, Executor serial, Context context, boolean pooled) {
      this.call = call;
      this.serial = serial;
      this.context = context;
      this.pooled = pooled;
    }

    void start(Supplier<ServerCall.Listener<ReqT>> startCall) {
      dispatch(() -> {
        try {
          handler = startCall.get();
        } catch (RuntimeException e) {
          refuse(e);
        }
      });
    }

    @Override
    public void inOrder(Runnable task) {
      dispatch(task);
    }

    private void dispatch(Runnable task) {
      if (pooled) {
        serial.execute(context.wrap(task));
      } else {
        context.run(task);
      }
    }

    private void refuse(RuntimeException e) {
      refused = true;
      StatusRuntimeException status = errors.toGrpc(e);
      call.close(status.getStatus(), status.getTrailers() == null ? new Metadata() : status.getTrailers());
    }

    /** Runs event where the call runs now, unless it was refused (or, skipWhenClosed, is over). */
    private void run(Consumer<ServerCall.Listener<ReqT>> event, boolean skipWhenClosed) {
      dispatch(() -> {
        if (refused || handler == null || (skipWhenClosed && call.isClosed())) {
          return;
        }
        try {
          event.accept(handler);
        } catch (RuntimeException e) {
          refuse(e);
          handler.onCancel();
        }
      });
    }

    @Override
    public void onMessage(ReqT message) {
      // Every large call counts against the limit, wherever it runs; one that ran inline moves.
      if (!holdsLargeCallPermit && message instanceof MessageLite m && m.getSerializedSize() > inlineMaxMessageBytes) {
        if (!largeCalls.tryAcquire()) {
          run(h -> {
            throw Status.RESOURCE_EXHAUSTED
                .withDescription("more than " + maxLargeCalls + " calls with a request over " + inlineMaxMessageBytes
                    + " bytes are in progress; retry later")
                .asRuntimeException();
          }, true);
          return;
        }
        holdsLargeCallPermit = true;
        if (!pooled) {
          serial = MoreExecutors.newSequentialExecutor(largePool);
          pooled = true;
        }
      }
      run(h -> h.onMessage(message), true);
    }

    @Override
    public void onHalfClose() {
      run(ServerCall.Listener::onHalfClose, true);
    }

    @Override
    public void onCancel() {
      releaseLargeCallPermit();
      run(ServerCall.Listener::onCancel, false);
    }

    @Override
    public void onComplete() {
      releaseLargeCallPermit();
      run(ServerCall.Listener::onComplete, false);
    }

    /** At the call's end (one of onCancel, onComplete: the transport says which, once). */
    private void releaseLargeCallPermit() {
      if (holdsLargeCallPermit) {
        holdsLargeCallPermit = false;
        largeCalls.release();
      }
    }

    @Override
    public void onReady() {
      run(ServerCall.Listener::onReady, true);
    }
  }
}
