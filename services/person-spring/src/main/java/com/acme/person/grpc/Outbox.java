package com.acme.person.grpc;

import com.acme.person.metrics.Phases;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.protobuf.MessageLite;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import io.grpc.netty.shaded.io.netty.util.concurrent.EventExecutor;
import io.grpc.netty.shaded.io.netty.util.internal.ThreadExecutorMap;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The only writer of a call's answer: headers, messages and the status, each on the call's own
 * transport thread (its Netty event loop), in order, the status once — whoever produces them,
 * the transport thread itself or a worker. ServerCall is not thread-safe, and there is more:
 * when grpc-java's transport ends a call itself (a frame over the size limit, cut short, with
 * reserved flags) it writes a status of its own and cancels the call's context, on that thread.
 * A status written from another thread at that moment was a second set of headers on a finished
 * stream, and Netty answers that by closing the whole connection, with every other call on it.
 * On the transport thread, a write sees the cancellation and is dropped.
 *
 * <p>A worker's answers are encoded on the worker, so the transport thread only copies bytes.
 * What is queued for the transport counts against isReady(), so a streaming handler that waits
 * for isReady() cannot queue without bound; it hears onReady again once the queue is written.
 */
final class Outbox {

  /** Answers queued for the transport thread beyond this many bytes make isReady() false. */
  private static final int READY_BYTES = 32 * 1024;

  private final ServerCall<?, Object> call;
  private final Executor loop;
  private final EventExecutor eventLoop;
  private final Context context;
  private final Phases phases;
  private final String method;
  private final long started;
  private volatile Runnable whenWritable = () -> {};

  // Guarded by this: what other threads queued for the transport thread.
  private final ArrayDeque<Write> queued = new ArrayDeque<>();
  private boolean draining;
  private long queuedBytes;
  private boolean ending;
  private boolean wasFull;

  // The transport thread's own.
  private boolean headersSent;
  private boolean closed;

  private record Write(Runnable write, int bytes) {}

  /** The outbox of call, made where the transport started it (its thread is the call's). */
  Outbox(ServerCall<?, Object> call, Phases phases, String method, long started) {
    this.call = call;
    this.phases = phases;
    this.method = method;
    this.started = started;
    this.context = Context.current();
    this.eventLoop = ThreadExecutorMap.currentExecutor();
    // Not started on an event loop (another transport): writes are still serialized.
    this.loop = eventLoop != null ? eventLoop : MoreExecutors.newSequentialExecutor(MoreExecutors.directExecutor());
  }

  /** What to run when isReady() may have turned true because the queue was written. */
  void whenWritable(Runnable task) {
    whenWritable = task;
  }

  /** Sends one answer message (headers first, once). */
  void send(Object message) {
    if (onLoopWithNothingQueued()) {
      writeMessage(message, true);
      return;
    }
    Object answer = message;
    int bytes = 0;
    if (message instanceof MessageLite m) {
      long start = System.nanoTime();
      EncodedAnswer encoded = EncodedAnswer.of(m);
      phases.since(start, method, "encode");
      answer = encoded;
      bytes = encoded.size();
    }
    Object toWrite = answer;
    enqueue(new Write(() -> writeMessage(toWrite, false), bytes), false);
  }

  /** Ends the call with status; only the first close counts, and nothing is sent after it. */
  void close(Status status, Metadata trailers) {
    synchronized (this) {
      if (ending) {
        return;
      }
      ending = true;
    }
    if (onLoopWithNothingQueued()) {
      writeClose(status, trailers);
    } else {
      enqueue(new Write(() -> writeClose(status, trailers), 0), true);
    }
  }

  /** Whether the call is over, as far as its answer goes. */
  synchronized boolean isClosed() {
    return ending;
  }

  /** Whether another answer can go out without piling up: the transport's and this queue's. */
  boolean isReady() {
    synchronized (this) {
      if (ending) {
        return false;
      }
      if (queuedBytes >= READY_BYTES) {
        wasFull = true;
        return false;
      }
    }
    return call.isReady();
  }

  private synchronized boolean onLoopWithNothingQueued() {
    return eventLoop != null && eventLoop.inEventLoop() && queued.isEmpty() && !draining;
  }

  private void enqueue(Write write, boolean closing) {
    synchronized (this) {
      if (ending && !closing) {
        return;
      }
      queued.add(write);
      queuedBytes += write.bytes();
      if (draining) {
        return;
      }
      draining = true;
    }
    try {
      loop.execute(this::drain);
    } catch (RejectedExecutionException stopped) {
      // The event loop is shutting down, with the connection: there is nobody left to answer.
      synchronized (this) {
        queued.clear();
        draining = false;
      }
    }
  }

  private void drain() {
    boolean notify;
    while (true) {
      Write next;
      synchronized (this) {
        next = queued.poll();
        if (next == null) {
          draining = false;
          notify = wasFull;
          wasFull = false;
          break;
        }
        queuedBytes -= next.bytes();
      }
      next.write().run();
    }
    if (notify) {
      whenWritable.run();
    }
  }

  /** Writes message; timed: it is encoded here (grpc-java encodes inside sendMessage). */
  private void writeMessage(Object message, boolean timed) {
    if (over()) {
      return;
    }
    if (!headersSent) {
      headersSent = true;
      call.sendHeaders(new Metadata());
    }
    long start = System.nanoTime();
    call.sendMessage(message);
    if (timed) {
      phases.since(start, method, "encode");
    }
  }

  private void writeClose(Status status, Metadata trailers) {
    if (over()) {
      return;
    }
    closed = true;
    call.close(status, trailers);
    phases.since(started, method, "total");
  }

  /** True once this closed the call, or the transport ended it (its context is cancelled). */
  private boolean over() {
    if (!closed && context.isCancelled()) {
      closed = true;
    }
    return closed;
  }
}
