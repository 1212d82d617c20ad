package com.acme.person.grpc;

import com.acme.person.error.ErrorMapper;
import io.grpc.StatusException;
import io.grpc.protobuf.StatusProto;
import org.springframework.grpc.server.exception.GrpcExceptionHandler;
import org.springframework.stereotype.Component;

/**
 * Spring gRPC's hook for exceptions thrown by handlers (and for onError with a non-status
 * exception): hands every one to ErrorMapper, so nothing reaches the client unmapped.
 */
@Component
public class GrpcErrorHandler implements GrpcExceptionHandler {

  private final ErrorMapper errors;

  public GrpcErrorHandler(ErrorMapper errors) {
    this.errors = errors;
  }

  @Override
  public StatusException handleException(Throwable exception) {
    return StatusProto.toStatusException(errors.toStatus(exception));
  }
}
