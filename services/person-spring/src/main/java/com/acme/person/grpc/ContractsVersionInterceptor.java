package com.acme.person.grpc;

import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.grpc.server.GlobalServerInterceptor;
import org.springframework.stereotype.Component;

/**
 * Every answer says which contracts the service was built with: the acme-contracts-version
 * header (in the trailers of a call that ends without headers), the version of the Java SDK on
 * the class path. A client that sees an unexpected answer can tell a contract mismatch from a bug.
 */
@Component
@GlobalServerInterceptor
@Order(Ordered.HIGHEST_PRECEDENCE) // outermost: no answer goes without it
public class ContractsVersionInterceptor implements ServerInterceptor {
  static final Metadata.Key<String> HEADER = Metadata.Key.of("acme-contracts-version", Metadata.ASCII_STRING_MARSHALLER);
  /** Where Maven records the SDK jar's own version. */
  private static final String POM_PROPERTIES = "META-INF/maven/com.acme.contracts/acme-contracts/pom.properties";

  private final String version = sdkVersion();

  /** The version of the acme-contracts jar this service runs with. */
  public static String sdkVersion() {
    try (InputStream in = ContractsVersionInterceptor.class.getClassLoader().getResourceAsStream(POM_PROPERTIES)) {
      if (in == null) {
        throw new IllegalStateException(POM_PROPERTIES + " is not on the class path: is acme-contracts?");
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    return next.startCall(new SimpleForwardingServerCall<>(call) {
      private boolean headersSent;

      @Override
      public void sendHeaders(Metadata responseHeaders) {
        responseHeaders.put(HEADER, version);
        headersSent = true;
        super.sendHeaders(responseHeaders);
      }

      @Override
      public void close(Status status, Metadata trailers) {
        if (!headersSent) {
          trailers.put(HEADER, version);
        }
        super.close(status, trailers);
      }
    }, headers);
  }
}
