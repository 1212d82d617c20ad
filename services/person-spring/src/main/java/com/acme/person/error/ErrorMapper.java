package com.acme.person.error;

import com.acme.person.auth.AuthUnavailableException;
import com.acme.person.auth.UnauthenticatedException;
import com.acme.person.domain.PersonNotFoundException;
import com.acme.person.domain.RequestIdConflictException;
import com.acme.person.service.StreamAbortedException;
import com.acme.person.store.StoreFullException;
import com.acme.person.store.StoreUnavailableException;
import com.acme.person.validation.InvalidRequestException;
import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.RetryInfo;
import com.google.rpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.stereotype.Component;

/**
 * The one place where exceptions become status codes, for gRPC (status + details trailer) and
 * for the REST twin (the same code, as an HTTP status). Anything unexpected becomes INTERNAL
 * with a fixed message: the exception itself (stack, SQL, …) is logged, never sent.
 */
@Component
public class ErrorMapper {

  private static final Logger log = LoggerFactory.getLogger(ErrorMapper.class);

  /** The google.rpc.Status a client receives for t. */
  public Status toStatus(Throwable t) {
    if (t instanceof InvalidRequestException e) {
      return Status.newBuilder()
          .setCode(Code.INVALID_ARGUMENT_VALUE)
          .setMessage(e.getMessage())
          .addDetails(Any.pack(e.violations()))
          .build();
    }
    if (t instanceof StatusRuntimeException || t instanceof StatusException) {
      Status withDetails = StatusProto.fromThrowable(t);
      if (withDetails != null) {
        return withDetails;
      }
      io.grpc.Status s = io.grpc.Status.fromThrowable(t);
      return status(Code.forNumber(s.getCode().value()), s.getDescription() == null ? "" : s.getDescription());
    }
    if (t instanceof UnauthenticatedException) {
      return status(Code.UNAUTHENTICATED, t.getMessage());
    }
    if (t instanceof AuthUnavailableException) {
      return status(Code.UNAVAILABLE, t.getMessage());
    }
    if (t instanceof PersonNotFoundException) {
      return status(Code.NOT_FOUND, t.getMessage());
    }
    if (t instanceof RequestIdConflictException) {
      return status(Code.ALREADY_EXISTS, t.getMessage());
    }
    if (t instanceof StreamAbortedException) {
      return status(Code.CANCELLED, "the stream was cancelled; nothing was stored");
    }
    if (t instanceof StoreFullException) {
      // Logged once by the store (StoreFailures), with the folder and what failed.
      return status(Code.RESOURCE_EXHAUSTED, t.getMessage());
    }
    if (t instanceof StoreUnavailableException) {
      return status(Code.UNAVAILABLE, t.getMessage());
    }
    if (t instanceof LimitReachedException e) {
      RetryInfo retry = RetryInfo.newBuilder()
          .setRetryDelay(com.google.protobuf.Duration.newBuilder()
              .setSeconds(e.retryAfter().getSeconds())
              .setNanos(e.retryAfter().getNano()))
          .build();
      return Status.newBuilder()
          .setCode(Code.RESOURCE_EXHAUSTED_VALUE)
          .setMessage(e.getMessage())
          .addDetails(Any.pack(retry))
          .build();
    }
    if (t instanceof RejectedExecutionException) {
      // Only a pool that was shut down refuses work: the service is stopping.
      return status(Code.UNAVAILABLE, "the service is shutting down; retry later");
    }
    if (t instanceof DataAccessResourceFailureException || t instanceof TransientDataAccessException) {
      log.warn("database unavailable", t);
      return status(Code.UNAVAILABLE, "the database is unavailable; retry later");
    }
    log.error("unexpected failure", t);
    return status(Code.INTERNAL, "internal error");
  }

  /** The gRPC form of toStatus: status code, message and the details trailer. */
  public StatusRuntimeException toGrpc(Throwable t) {
    return StatusProto.toStatusRuntimeException(toStatus(t));
  }

  /** The HTTP status the REST twin answers for a gRPC code. */
  public static int httpStatus(int grpcCode) {
    return switch (Code.forNumber(grpcCode)) {
      case INVALID_ARGUMENT, OUT_OF_RANGE, FAILED_PRECONDITION -> 400;
      case UNAUTHENTICATED -> 401;
      case PERMISSION_DENIED -> 403;
      case NOT_FOUND -> 404;
      case ALREADY_EXISTS, ABORTED -> 409;
      case RESOURCE_EXHAUSTED -> 429;
      case CANCELLED -> 499;
      case UNAVAILABLE -> 503;
      case DEADLINE_EXCEEDED -> 504;
      default -> 500;
    };
  }

  private static Status status(Code code, String message) {
    return Status.newBuilder().setCode(code.getNumber()).setMessage(message).build();
  }
}
