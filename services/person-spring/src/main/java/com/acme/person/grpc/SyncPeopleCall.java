package com.acme.person.grpc;

import build.buf.validate.Violations;
import com.acme.person.error.ErrorMapper;
import com.acme.person.mapping.PersonMapper;
import com.acme.person.service.PersonRegistry;
import com.acme.person.v1.SyncPeopleError;
import com.acme.person.v1.SyncPeopleRequest;
import com.acme.person.v1.SyncPeopleResponse;
import com.acme.person.validation.RequestValidator;
import com.google.rpc.Code;
import com.google.rpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/**
 * One SyncPeople stream: each item is validated and stored (idempotently, in its own
 * transaction) as it arrives and answered at once, in order. An item's failure is its answer's
 * SyncPeopleError; only UNAVAILABLE (or the client going away) ends the stream. The next item
 * is requested only when the answer could be sent, so a client that stops reading stops the
 * server reading too.
 */
final class SyncPeopleCall implements StreamObserver<SyncPeopleRequest> {

  private final ServerCallStreamObserver<SyncPeopleResponse> out;
  private final PersonRegistry registry;
  private final PersonMapper mapper;
  private final RequestValidator validator;
  private final ErrorMapper errors;
  private boolean owed;
  private boolean done;

  SyncPeopleCall(
      ServerCallStreamObserver<SyncPeopleResponse> out,
      PersonRegistry registry,
      PersonMapper mapper,
      RequestValidator validator,
      ErrorMapper errors) {
    this.out = out;
    this.registry = registry;
    this.mapper = mapper;
    this.validator = validator;
    this.errors = errors;
    out.disableAutoRequest();
    out.setOnReadyHandler(this::onReady);
    out.request(1);
  }

  @Override
  public void onNext(SyncPeopleRequest item) {
    if (done) {
      return;
    }
    SyncPeopleResponse answer;
    try {
      answer = answer(item);
    } catch (RuntimeException streamFailure) {
      done = true;
      out.onError(errors.toGrpc(streamFailure));
      return;
    }
    out.onNext(answer);
    if (out.isReady()) {
      out.request(1);
    } else {
      owed = true;
    }
  }

  private void onReady() {
    if (owed && !done) {
      owed = false;
      out.request(1);
    }
  }

  @Override
  public void onError(Throwable t) {
    done = true;
  }

  @Override
  public void onCompleted() {
    if (!done) {
      done = true;
      out.onCompleted();
    }
  }

  private SyncPeopleResponse answer(SyncPeopleRequest item) {
    Violations violations = validator.violations(item);
    if (violations != null) {
      boolean badRequestId =
          violations.getViolationsList().stream()
              .anyMatch(v -> v.getField().getElementsCount() > 0
                  && v.getField().getElements(0).getFieldName().equals("request_id"));
      return SyncPeopleResponse.newBuilder()
          .setRequestId(badRequestId ? "" : item.getRequestId())
          .setError(
              SyncPeopleError.newBuilder()
                  .setCode(Code.INVALID_ARGUMENT_VALUE)
                  .setMessage(RequestValidator.describe("", item, violations))
                  .addAllViolations(violations.getViolationsList()))
          .build();
    }
    try {
      String id = registry.register(item.getRequestId(), mapper.fromProto(item.getPerson())).id();
      return SyncPeopleResponse.newBuilder().setRequestId(item.getRequestId()).setId(id).build();
    } catch (RuntimeException e) {
      Status status = errors.toStatus(e);
      if (status.getCode() == Code.UNAVAILABLE_VALUE) {
        throw e;
      }
      return SyncPeopleResponse.newBuilder()
          .setRequestId(item.getRequestId())
          .setError(SyncPeopleError.newBuilder().setCode(status.getCode()).setMessage(status.getMessage()))
          .build();
    }
  }
}
