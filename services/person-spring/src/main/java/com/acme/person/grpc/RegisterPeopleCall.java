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
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One RegisterPeople stream. It takes no thread while its people arrive: they wait in its
 * buffer, and the stream is handed to a writer (RegisterPeopleStreams) once it has ended or
 * filled its buffer. The writer stores it in one transaction — a transaction is bound to one
 * thread — taking people from the buffer as the rest of the stream arrives. So a service with
 * four writers serves thousands of streams at once, each held at its sender by flow control
 * until a writer takes it; a slow store slows its senders, it does not refuse them.
 *
 * <p>Memory stays bounded without buffering the stream: inbound flow control is manual, and the
 * client may only send as many people as the buffer has room for — window people, about buffer
 * bytes of them, at least one — credit returning as the writer takes them. With the writer's
 * batch that is at most window + batchSize people in memory, however long the stream. A cancel,
 * a broken stream or an invalid person (the boundary cancels the handler) rolls it back, and the
 * stream's place is given back at once.
 */
final class RegisterPeopleCall implements StreamObserver<RegisterPeopleRequest>, PersonSource {

  private final ServerCallStreamObserver<RegisterPeopleResponse> response;
  private final PersonRegistry registry;
  private final PersonMapper mapper;
  private final ErrorMapper errors;
  private final RegisterPeopleStreams streams;
  private final RegisterPeopleStreams.Place place;
  private final int window;
  private final long buffer;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  // Guarded by lock: the buffer, and the flow control around it.
  private final ArrayDeque<Arrival> arrived = new ArrayDeque<>();
  private long bufferedBytes;
  private int outstanding;
  private long arrivals;
  private long arrivedBytes;
  private boolean ended;
  private boolean storing;
  private volatile boolean aborted;

  // The call's events only (one at a time).
  private long received;
  private volatile String requestId;

  private record Arrival(PersonDto person, int bytes) {}

  private RegisterPeopleCall(
      ServerCallStreamObserver<RegisterPeopleResponse> response,
      PersonRegistry registry,
      PersonMapper mapper,
      ErrorMapper errors,
      RegisterPeopleStreams streams,
      RegisterPeopleStreams.Place place) {
    this.response = response;
    this.registry = registry;
    this.mapper = mapper;
    this.errors = errors;
    this.streams = streams;
    this.place = place;
    this.window = streams.window();
    this.buffer = streams.buffer();
  }

  /** Starts a stream, or refuses it when the streams open are at their limit. */
  static RegisterPeopleCall start(
      ServerCallStreamObserver<RegisterPeopleResponse> response,
      PersonRegistry registry,
      PersonMapper mapper,
      ErrorMapper errors,
      RegisterPeopleStreams streams) {
    RegisterPeopleStreams.Place place = streams.admit();
    RegisterPeopleCall call = new RegisterPeopleCall(response, registry, mapper, errors, streams, place);
    response.disableAutoRequest();
    // Also after half-close, when onError is no longer called: the commit must not happen.
    response.setOnCancelHandler(call::abort);
    // The call can also end without a cancel and without this stream's half-close — the
    // transport closed it. Then nothing may be committed, and the writer must not wait on.
    // (After a commit the writer has already returned, so this changes nothing but the place.)
    response.setOnCloseHandler(call::abort);
    call.askForMore();
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
    Arrival arrival = new Arrival(mapper.fromProto(request.getPerson()), request.getSerializedSize());
    boolean ready;
    int more;
    lock.lock();
    try {
      if (aborted) {
        return;
      }
      arrived.add(arrival);
      bufferedBytes += arrival.bytes();
      arrivals++;
      arrivedBytes += arrival.bytes();
      outstanding--;
      changed.signalAll();
      more = credit();
      // Waiting for a writer and full: it is ready to be stored.
      ready = !storing && more == 0 && outstanding == 0;
      storing |= ready;
    } finally {
      lock.unlock();
    }
    if (ready) {
      streams.store(this::work);
    }
    if (more > 0) {
      response.request(more);
    }
  }

  @Override
  public void onError(Throwable t) {
    abort();
  }

  @Override
  public void onCompleted() {
    boolean ready;
    lock.lock();
    try {
      ended = true;
      changed.signalAll();
      ready = !storing;
      storing = true;
    } finally {
      lock.unlock();
    }
    if (ready) {
      streams.store(this::work);
    }
  }

  @Override
  public PersonDto next() throws InterruptedException {
    Arrival next;
    int more;
    lock.lock();
    try {
      while (arrived.isEmpty() && !ended && !aborted) {
        changed.await();
      }
      checkNotAborted();
      next = arrived.poll();
      if (next == null) {
        return null;
      }
      bufferedBytes -= next.bytes();
      more = credit();
    } finally {
      lock.unlock();
    }
    if (more > 0) {
      response.request(more);
    }
    return next.person();
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

  /**
   * How many more people to ask the client for now (under lock), counted as outstanding: as
   * many as fit in the window and, by the size of the people so far, in the buffer — at least
   * one when nothing is buffered or coming. Otherwise asked in batches of at least half of what
   * fits: a request from the writer's thread is a hop to the transport's, and one per person
   * made the stream several times slower.
   */
  private int credit() {
    if (ended || aborted) {
      return 0;
    }
    long each = arrivals == 0 ? buffer : Math.max(1, arrivedBytes / arrivals);
    long fits = Math.max(1, Math.min(window, buffer / each));
    long room = Math.min(fits - arrived.size() - outstanding, (buffer - bufferedBytes) / each - outstanding);
    if (arrived.isEmpty() && outstanding == 0) {
      room = Math.max(room, 1);
    } else if (room < (fits + 1) / 2) {
      return 0;
    }
    if (room <= 0) {
      return 0;
    }
    outstanding += (int) room;
    return (int) room;
  }

  private void askForMore() {
    int more;
    lock.lock();
    try {
      more = credit();
    } finally {
      lock.unlock();
    }
    if (more > 0) {
      response.request(more);
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

  /** Rolls the stream back (or stops it waiting) and gives its place back, at once. */
  private void abort() {
    lock.lock();
    try {
      aborted = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    place.release();
  }

  /** On a writer: stores the whole stream in one transaction, and answers. */
  private void work() {
    RegisteredPeople stored;
    try {
      stored = registry.registerAll(this);
    } catch (StreamAbortedException e) {
      return; // rolled back; the call is already over for the client
    } catch (RuntimeException | Error e) {
      // Errors too (say OutOfMemoryError): a dead writer must not leave the call hanging.
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
