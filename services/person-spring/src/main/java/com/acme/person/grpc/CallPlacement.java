package com.acme.person.grpc;

import com.acme.person.config.PersonProperties;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.concurrent.Executor;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

/**
 * Where a call runs. The server delivers every call on its transport threads (directExecutor:
 * GrpcTransportConfig) — handing each call to a pool, a thread woken for it and another for its
 * answer, made gRPC slower than the REST twin (GetPerson: 17,000 calls/s at 50 concurrent
 * callers through a pool, 30,700 in place; h2load, the service on the host, 2 cores). But a
 * transport thread serves many connections and must never wait on another process, nor spend
 * long on one message. So a call runs in place only when its token has a cached answer and the
 * database is embedded (person.grpc.inline-calls; off for PostgreSQL); otherwise on a pool,
 * which may wait (a cached pool, as grpc-java's own default executor: a slow database must not
 * starve other calls of threads; a call waiting for its token's check holds no thread at all,
 * CallBoundary). And a call moves to a small pool of its own as soon as a
 * request message is larger than person.grpc.inline-max-message-size: decoding, validating and
 * storing 1 MB people one after the other on the thread of their connection served 33
 * RegisterPerson calls/s at 100 due per second, the pool 82 (ghz, 1 MB requests, one
 * connection), and stalled every other connection of that thread. Its few threads bound the
 * large calls decoded and stored at once; the calls beyond them wait, none is refused. What the
 * waiting calls hold is bounded elsewhere: a call waiting here has read its request whole, so
 * the request budget (RequestBudget, limits.requests-in-memory) decides how many may have read
 * it; the calls beyond that wait with their bytes at the sender, held by HTTP/2 flow control.
 */
@Component
class CallPlacement {

  private final Executor pool;
  private final Executor largePool;
  private final boolean inline;
  private final long inlineMaxMessageBytes;

  CallPlacement(
      @Qualifier("grpcCallPool") Executor pool,
      @Qualifier("grpcLargeCallPool") Executor largePool,
      PersonProperties properties) {
    this.pool = pool;
    this.largePool = largePool;
    this.inline = properties.grpc().inlineCalls();
    this.inlineMaxMessageBytes = properties.grpc().inlineMaxMessageSize().toBytes();
  }

  /** Whether a call may run in place at all (then a cached token decides). */
  boolean mayRunInPlace() {
    return inline;
  }

  /** The events of a new call: in place when its token's answer is cached, else on the pool. */
  SerialExecutor start(boolean tokenCached) {
    return new SerialExecutor(inline && tokenCached ? MoreExecutors.directExecutor() : pool);
  }

  /** A request message of bytes arrived: a large one moves the call (for good) to the large pool. */
  void arrived(SerialExecutor call, long bytes) {
    if (bytes > inlineMaxMessageBytes) {
      call.moveTo(largePool);
    }
  }
}
