package com.acme.person.rest;

import com.acme.person.config.PersonProperties;
import com.google.rpc.Code;
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
 *       at once when Content-Length says so, and while reading when it is chunked.
 * </ul>
 */
@Component
public class RestBodyFilter extends OncePerRequestFilter {

  private final long limit;
  private final RestErrors errors;

  public RestBodyFilter(PersonProperties properties, RestErrors errors) {
    this.limit = properties.limits().restBodySize().toBytes();
    this.errors = errors;
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
    if (request.getContentLengthLong() > limit) {
      errors.write(response, 413, Code.RESOURCE_EXHAUSTED, tooLarge());
      return;
    }
    chain.doFilter(new LimitedBody(request, limit), response);
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
