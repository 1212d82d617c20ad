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
import java.util.concurrent.Semaphore;
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
 *       limit when chunked) until it is answered, and one beyond it waits, its body unread.
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

  public RestBodyFilter(PersonProperties properties, RestErrors errors, MeterRegistry registry) {
    this.limit = properties.limits().restBodySize().toBytes();
    this.errors = errors;
    long capacity = properties.limits().restBodiesInMemory().toBytes();
    if (capacity < limit || capacity > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("person.limits.rest-bodies-in-memory (" + capacity
          + " bytes) must hold at least one body of person.limits.rest-body-size (" + limit + " bytes), and at most 2 GB");
    }
    this.inMemory = new Semaphore((int) capacity, true);
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
    try {
      chain.doFilter(new LimitedBody(request, limit), response);
    } finally {
      held.addAndGet(-bytes);
      inMemory.release(bytes);
    }
  }

  String tooLarge() {
    return "the body is larger than " + limit + " bytes";
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

  /** The request with a body that throws BodyTooLargeException past the limit. */
  private static final class LimitedBody extends HttpServletRequestWrapper {
    private final long limit;
    private ServletInputStream stream;

    LimitedBody(HttpServletRequest request, long limit) {
      super(request);
      this.limit = limit;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      if (stream == null) {
        stream = new Counting(super.getInputStream(), limit);
      }
      return stream;
    }
  }

  private static final class Counting extends ServletInputStream {
    private final ServletInputStream in;
    private final long limit;
    private long read;

    Counting(ServletInputStream in, long limit) {
      this.in = in;
      this.limit = limit;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = in.read(buffer, offset, length);
      if (n > 0) {
        count(n);
      }
      return n;
    }

    private void count(int n) throws BodyTooLargeException {
      read += n;
      if (read > limit) {
        throw new BodyTooLargeException();
      }
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
