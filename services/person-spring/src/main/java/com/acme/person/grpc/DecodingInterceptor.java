package com.acme.person.grpc;

import com.acme.person.config.PersonProperties;
import com.acme.person.error.ErrorMapper;
import com.acme.person.metrics.Phases;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.InputStream;
import org.springframework.core.annotation.Order;
import org.springframework.grpc.server.GlobalServerInterceptor;
import org.springframework.stereotype.Component;

/**
 * The first of the service's interceptors: decodes the request messages of every method served
 * through UndecodedRequests, and is the boundary for what a client can get wrong on the wire.
 *
 * <ul>
 *   <li>a message that is not a valid request → INVALID_ARGUMENT naming its position, no
 *       parser details; one that inflates past the size limit → RESOURCE_EXHAUSTED;
 *   <li>a unary or server-streaming call with no request, or more than one → INVALID_ARGUMENT
 *       (grpc-java would answer INTERNAL);
 *   <li>an exception thrown while the handler takes a message → the status ErrorMapper gives it
 *       (INTERNAL for anything unexpected; grpc-java would answer UNKNOWN).
 * </ul>
 *
 * In each case the handler is cancelled (see RefusingListener). Messages of a call already
 * closed — say, by the auth check — are not even decoded.
 */
@Component
@GlobalServerInterceptor
@Order(InterceptorOrder.DECODING)
public class DecodingInterceptor implements ServerInterceptor {

  private final ErrorMapper errors;
  private final Phases phases;
  private final long maxMessageBytes;

  public DecodingInterceptor(ErrorMapper errors, Phases phases, PersonProperties properties) {
    this.errors = errors;
    this.phases = phases;
    this.maxMessageBytes = properties.limits().messageSize().toBytes();
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    MethodDescriptor<ReqT, RespT> method = call.getMethodDescriptor();
    if (!(method.getRequestMarshaller() instanceof UndecodedRequests.Decoder decoder)) {
      return next.startCall(call, headers);
    }
    ClosingOnceServerCall<ReqT, RespT> guarded = new ClosingOnceServerCall<>(call);
    boolean oneRequest = method.getType().clientSendsOneMessage();
    return new RefusingListener<>(next.startCall(guarded, headers), guarded) {
      private long received;

      @Override
      @SuppressWarnings("unchecked")
      public void onMessage(ReqT bytes) {
        if (isOver()) {
          return;
        }
        if (oneRequest && received > 0) {
          refuse(invalid("a " + shape(method) + " call takes exactly one request message, got more"));
          return;
        }
        ReqT message;
        try {
          long start = System.nanoTime();
          message = (ReqT) decoder.decode((InputStream) bytes);
          phases.since(start, method.getBareMethodName(), "decode");
        } catch (RuntimeException undecodable) {
          String which = oneRequest ? "the request" : StreamPositions.message(received);
          refuse(overLimit(undecodable)
              ? Status.RESOURCE_EXHAUSTED.withDescription(which + " is larger than the limit of "
                  + maxMessageBytes + " bytes after decompression").asRuntimeException(new Metadata())
              : invalid(which + " is not a valid " + decoder.typeName()));
          return;
        }
        received++;
        try {
          super.onMessage(message);
        } catch (RuntimeException e) {
          refuse(errors.toGrpc(e));
        }
      }

      @Override
      public void onHalfClose() {
        if (!isOver() && oneRequest && received == 0) {
          refuse(invalid("a " + shape(method) + " call takes exactly one request message, got none"));
          return;
        }
        try {
          super.onHalfClose();
        } catch (RuntimeException e) {
          refuse(errors.toGrpc(e));
        }
      }
    };
  }

  private static StatusRuntimeException invalid(String message) {
    return Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException(new Metadata());
  }

  /**
   * Whether decoding stopped at the message size limit: the transport enforces it while a
   * compressed message is inflated, which happens here, as the message is decoded.
   */
  private static boolean overLimit(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED) {
        return true;
      }
    }
    return false;
  }

  private static String shape(MethodDescriptor<?, ?> method) {
    return method.getType() == MethodDescriptor.MethodType.UNARY ? "unary" : "server-streaming";
  }
}
