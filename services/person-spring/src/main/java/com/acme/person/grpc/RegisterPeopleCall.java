package com.acme.person.grpc;

import com.acme.person.domain.PersonDto;
import com.acme.person.error.ErrorMapper;
import com.acme.person.mapping.PersonMapper;
import com.acme.person.service.PersonRegistry;
import com.acme.person.service.PersonSource;
import com.acme.person.service.RegisteredPeople;
import com.acme.person.service.StreamAbortedException;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import com.acme.person.validation.InvalidRequestException;
import build.buf.validate.FieldPath;
import build.buf.validate.FieldPathElement;
import build.buf.validate.Violation;
import build.buf.validate.Violations;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;

/**
 * One RegisterPeople stream. gRPC delivers messages on its own threads, but a transaction is
 * bound to one thread, so a single worker owns the transaction and takes people from a queue.
 *
 * <p>Memory stays bounded without buffering the stream: inbound flow control is manual, and
 * the client may only send as many people as the queue has room for, the window (credit
 * returns as the worker takes people). With the worker's batch that is at most window +
 * batchSize people in memory, however long the stream. A cancel, a broken stream or an invalid person (the validation
 * interceptor cancels the handler) rolls the transaction back.
 */
final class RegisterPeopleCall implements StreamObserver<RegisterPeopleRequest>, PersonSource {

  /** Marks the end of the stream, or wakes the worker after an abort. */
  private static final PersonDto END = new PersonDto(null, "", 0, null, null, null);

  private final ServerCallStreamObserver<RegisterPeopleResponse> response;
  private final PersonRegistry registry;
  private final PersonMapper mapper;
  private final ErrorMapper errors;
  private final BlockingQueue<PersonDto> queue;
  private final int refill;
  private int takenSinceRequest;
  private long received;
  private volatile String requestId;
  private volatile boolean aborted;

  private RegisterPeopleCall(
      ServerCallStreamObserver<RegisterPeopleResponse> response,
      PersonRegistry registry,
      PersonMapper mapper,
      ErrorMapper errors,
      int window) {
    this.response = response;
    this.registry = registry;
    this.mapper = mapper;
    this.errors = errors;
    // window people, plus one slot for END.
    this.queue = new ArrayBlockingQueue<>(window + 1);
    // Credit is returned in half-windows: one request(1) per person costs a hop to the
    // transport thread each, which made the stream several times slower.
    this.refill = Math.max(1, window / 2);
  }

  static RegisterPeopleCall start(
      ServerCallStreamObserver<RegisterPeopleResponse> response,
      PersonRegistry registry,
      PersonMapper mapper,
      ErrorMapper errors,
      Executor workers,
      int window) {
    RegisterPeopleCall call = new RegisterPeopleCall(response, registry, mapper, errors, window);
    response.disableAutoRequest();
    // Also after half-close, when onError is no longer called: the commit must not happen.
    response.setOnCancelHandler(call::abort);
    // The call can also end without a cancel and without this stream's half-close — the
    // transport closed it. Then nothing may be committed, and the worker must not wait on.
    // (After a commit the worker has already returned, so this changes nothing.)
    response.setOnCloseHandler(call::abort);
    workers.execute(call::work);
    response.request(window);
    return call;
  }

  @Override
  public void onNext(RegisterPeopleRequest request) {
    if (aborted) {
      return;
    }
    String id = request.getRequestId();
    if (received == 0) {
      requestId = id.isEmpty() ? null : id;
    } else if (!id.isEmpty() && !id.equals(requestId)) {
      abort();
      response.onError(errors.toGrpc(otherRequestId(received, id)));
      return;
    }
    received++;
    if (!queue.offer(mapper.fromProto(request.getPerson()))) {
      // Flow control makes this impossible; if it happens anyway, fail rather than buffer.
      abort();
      response.onError(errors.toGrpc(new IllegalStateException("RegisterPeople queue overflow")));
    }
  }

  @Override
  public void onError(Throwable t) {
    abort();
  }

  @Override
  public void onCompleted() {
    queue.offer(END);
  }

  @Override
  public PersonDto next() throws InterruptedException {
    checkNotAborted();
    PersonDto person = queue.take();
    checkNotAborted();
    if (person == END) {
      return null;
    }
    if (++takenSinceRequest == refill) {
      response.request(takenSinceRequest);
      takenSinceRequest = 0;
    }
    return person;
  }

  @Override
  public String requestId() {
    return requestId;
  }

  @Override
  public void checkNotAborted() {
    if (aborted) {
      throw new StreamAbortedException("RegisterPeople stream cancelled");
    }
  }

  /** A later message naming another stream than the first one did. */
  private InvalidRequestException otherRequestId(long position, String id) {
    String message = StreamPositions.message(position) + " has request_id " + id
        + ", but the stream's is " + (requestId == null ? "none" : requestId)
        + " (set it on the first message; later ones leave it empty or repeat it)";
    Violation violation = Violation.newBuilder()
        .setField(FieldPath.newBuilder().addElements(FieldPathElement.newBuilder()
            .setFieldName("request_id")
            .setFieldNumber(RegisterPeopleRequest.REQUEST_ID_FIELD_NUMBER)
            .setFieldType(FieldDescriptorProto.Type.TYPE_STRING)))
        .setRuleId("request_id.same_for_the_stream")
        .setMessage("must be empty or the request_id of the stream's first message")
        .build();
    return new InvalidRequestException(message, Violations.newBuilder().addViolations(violation).build());
  }

  private void abort() {
    aborted = true;
    queue.offer(END);
  }

  private void work() {
    RegisteredPeople stored;
    try {
      stored = registry.registerAll(this);
    } catch (StreamAbortedException e) {
      return; // rolled back; the call is already over for the client
    } catch (RuntimeException | Error e) {
      // Errors too (say OutOfMemoryError): a dead worker must not leave the call hanging.
      if (!aborted) {
        response.onError(errors.toGrpc(e));
      }
      if (e instanceof Error error) {
        throw error;
      }
      return;
    }
    RegisterPeopleResponse.Builder answer = RegisterPeopleResponse.newBuilder().setCount(stored.count());
    if (stored.idsOmitted()) {
      answer.setIdsOmitted(true);
    } else {
      answer.addAllIds(stored.ids());
    }
    response.onNext(answer.build());
    response.onCompleted();
  }
}
