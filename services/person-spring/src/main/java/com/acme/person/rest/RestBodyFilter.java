package com.acme.person.rest;

import com.acme.person.config.PersonProperties;
import com.google.rpc.Code;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * What the REST twin reads of a request body, checked before anything reads it — before the
 * token check too, so refusing costs nothing:
 *
 * <ul>
 *   <li>a body must be JSON in UTF-8 (415 UNIMPLEMENTED otherwise): no form parsing, no other
 *       charset that would turn invalid bytes into other characters;
 *   <li>a body larger than person.limits.rest-body-size is refused (413 RESOURCE_EXHAUSTED):
 *       at once when Content-Length says so, and while reading when it is chunked;
 *   <li>the bodies being read or served over all requests stay within
 *       person.limits.rest-bodies-in-memory: a request holds its Content-Length (the body
 *       limit when chunked) until it is answered, and one beyond it waits, its body unread;
 *   <li>once the service starts to read a body (after the token check, as for gRPC), the body
 *       has person.limits.request-arrival-time to come: then the part of its share it has not
 *       read is free, and its next read fails (408 DEADLINE_EXCEEDED) — as does a read Tomcat
 *       ends after waiting as long for a byte (server.tomcat.connection-timeout). A client that
 *       trickles a byte now and then cannot hold the budget.
 * </ul>
 */
@Component
public class RestBodyFilter extends OncePerRequestFilter {

  /** Body bytes held now and at most since the start, for operators and tests. */
  static final String HELD = "person.rest.bodies.held";
  static final String PEAK = "person.rest.bodies.held.peak";

  private final long limit;
  private final RestErrors errors;
  /** One permit a byte (bytes held: at most rest-bodies-in-memory); fair, so large bodies get their turn. */
  private final Semaphore inMemory;
  private final AtomicLong held = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();
  private final Duration arrival;
  /** Frees the unread shares of bodies whose time is up: one thread for all requests. */
  private final ScheduledThreadPoolExecutor deadlines;

  public RestBodyFilter(PersonProperties properties, RestErrors errors, MeterRegistry registry) {
    this.limit = properties.limits().restBodySize().toBytes();
    this.errors = errors;
    long capacity = properties.limits().restBodiesInMemory().toBytes();
    if (capacity < limit || capacity > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("person.limits.rest-bodies-in-memory (" + capacity
          + " bytes) must hold at least one body of person.limits.rest-body-size (" + limit + " bytes), and at most 2 GB");
    }
    this.inMemory = new Semaphore((int) capacity, true);
    this.arrival = properties.limits().requestArrivalTime();
    this.deadlines = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "rest-body-arrival");
      t.setDaemon(true);
      return t;
    });
    deadlines.setRemoveOnCancelPolicy(true); // a body that came in time leaves nothing queued
    Gauge.builder(HELD, held, AtomicLong::get).baseUnit("bytes")
        .description("REST request bodies being read or served").register(registry);
    Gauge.builder(PEAK, peak, AtomicLong::get).baseUnit("bytes")
        .description("the most REST request body bytes held at once since the service started").register(registry);
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !request.getRequestURI().startsWith("/api/") || !hasBody(request);
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (!isUtf8Json(request.getContentType())) {
      errors.write(response, 415, Code.UNIMPLEMENTED, "the body must be application/json in UTF-8");
      return;
    }
    long length = request.getContentLengthLong();
    if (length > limit) {
      errors.write(response, 413, Code.RESOURCE_EXHAUSTED, tooLarge());
      return;
    }
    int bytes = (int) (length >= 0 ? length : limit);
    try {
      inMemory.acquire(bytes);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      errors.write(response, 503, Code.UNAVAILABLE, "the service is stopping");
      return;
    }
    peak.accumulateAndGet(held.addAndGet(bytes), Math::max);
    Share share = new Share(bytes, length);
    try {
      chain.doFilter(new LimitedBody(request, share), response);
    } finally {
      share.end();
    }
  }

  @Override
  public void destroy() {
    deadlines.shutdownNow();
  }

  String tooLarge() {
    return "the body is larger than " + limit + " bytes";
  }

  String tooSlow() {
    return "the body did not come within " + arrival.toMillis() + " ms";
  }

  private void giveBack(long bytes) {
    held.addAndGet(-bytes);
    inMemory.release((int) bytes);
  }

  /**
   * One request's share of the budget and what it has read of its body. Read on the request's
   * thread, its time up on the deadline thread: both under its lock.
   */
  private final class Share {
    /** Permits held: the Content-Length (the body limit when chunked), the bytes read once time is up. */
    private long held;
    /** The Content-Length, or -1 when chunked. */
    private final long length;
    private long read;
    private boolean whole;
    private boolean late;
    /** Set when the body is first opened for reading; null until then. */
    private ScheduledFuture<?> deadline;

    Share(long held, long length) {
      this.held = held;
      this.length = length;
    }

    /** The body's time starts when something first opens it to read. */
    synchronized void opened() {
      if (deadline == null) {
        deadline = deadlines.schedule(this::timeIsUp, arrival.toNanos(), TimeUnit.NANOSECONDS);
      }
    }

    synchronized boolean late() {
      return late;
    }

    synchronized void counted(int n) throws IOException {
      if (late) {
        throw new BodyTooSlowException();
      }
      read += n;
      if (read > limit) {
        throw new BodyTooLargeException();
      }
      if (read == length) {
        arrived();
      }
    }

    /** The end of the body was read: its time no longer runs. */
    synchronized void arrived() {
      whole = true;
      cancel();
    }

    private void cancel() {
      if (deadline != null) {
        deadline.cancel(false);
      }
    }

    synchronized void timeIsUp() {
      if (whole || held == 0) {
        return;
      }
      late = true;
      long unread = held - Math.min(read, held);
      held -= unread;
      giveBack(unread);
    }

    synchronized void end() {
      cancel();
      giveBack(held);
      held = 0;
    }
  }

  private static boolean hasBody(HttpServletRequest request) {
    return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
  }

  private static boolean isUtf8Json(String contentType) {
    if (contentType == null) {
      return false;
    }
    MediaType type;
    try {
      type = MediaType.parseMediaType(contentType);
    } catch (InvalidMediaTypeException e) {
      return false;
    }
    Charset charset = type.getCharset();
    return MediaType.APPLICATION_JSON.equalsTypeAndSubtype(type)
        && (charset == null || charset.equals(StandardCharsets.UTF_8));
  }

  /** Reading more than the limit from the body. */
  static final class BodyTooLargeException extends IOException {
    BodyTooLargeException() {
      super("request body over the limit", null);
    }
  }

  /** Reading the body after its time was up. */
  static final class BodyTooSlowException extends IOException {
    BodyTooSlowException() {
      super("request body did not come in time", null);
    }
  }

  /** The request with a body counted against its share: too large or too late, it throws. */
  private static final class LimitedBody extends HttpServletRequestWrapper {
    private final Share share;
    private ServletInputStream stream;

    LimitedBody(HttpServletRequest request, Share share) {
      super(request);
      this.share = share;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      if (stream == null) {
        share.opened();
        stream = new Counting(super.getInputStream(), share);
      }
      return stream;
    }
  }

  private static final class Counting extends ServletInputStream {
    private final ServletInputStream in;
    private final Share share;

    Counting(ServletInputStream in, Share share) {
      this.in = in;
      this.share = share;
    }

    @Override
    public int read() throws IOException {
      int b;
      try {
        b = in.read();
      } catch (IOException e) {
        throw slowOr(e);
      }
      if (b >= 0) {
        share.counted(1);
      } else {
        share.arrived();
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n;
      try {
        n = in.read(buffer, offset, length);
      } catch (IOException e) {
        throw slowOr(e);
      }
      if (n > 0) {
        share.counted(n);
      } else if (n < 0) {
        share.arrived();
      }
      return n;
    }

    /**
     * What a failed read throws: too slow, not bad input, if it timed out waiting for a byte
     * (server.tomcat.connection-timeout, the same limit as the body's) or the body's time was up;
     * else the failure itself. Not with Tomcat's exception as its cause: Spring MVC takes a
     * ClientAbortException anywhere in the chain for a client gone and leaves the answer to
     * Tomcat (its bare 408 page, not ours).
     */
    private IOException slowOr(IOException e) {
      return share.late() || timedOut(e) ? new BodyTooSlowException() : e;
    }

    private static boolean timedOut(Throwable e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof java.net.SocketTimeoutException) {
          return true;
        }
      }
      return false;
    }

    @Override
    public boolean isFinished() {
      return in.isFinished();
    }

    @Override
    public boolean isReady() {
      return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
      in.setReadListener(listener);
    }
  }
}
