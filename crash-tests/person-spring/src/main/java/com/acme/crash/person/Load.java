package com.acme.crash.person;

import com.acme.person.v1.Address;
import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import com.acme.person.v1.RegisterPersonRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The load the crash lands in: unary writers calling RegisterPerson as fast as they are answered
 * (each person with its own request_id and a name unique to the run), and stream writers sending
 * RegisterPeople streams with a request_id, one of them slowly so that a stream is usually open
 * when the process dies, the other one stream a second. Every call and its outcome go into the
 * ledger. The load stops at the first failure after {@link #interrupted} is set; a failure
 * before that fails the test.
 */
final class Load {
  private final Service service;
  private final Ledger ledger;
  private final String prefix;
  final AtomicBoolean interrupted = new AtomicBoolean();
  private final List<String> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final CountDownLatch stopped;
  /** When each RegisterPerson call that failed was sent and when it ended (System.nanoTime). */
  private final java.util.Queue<long[]> failedSpans = new java.util.concurrent.ConcurrentLinkedQueue<>();
  /*
   * The stream writers are paced. Unpaced they took most of the store's throughput (the slow
   * writer's 3,000 people every 1.5 s and the fast one's streams back to back made 64,000 of a
   * run's 65,000 people on PostgreSQL), so the kill waited its whole minute for the unary
   * writers' calls, and every person more is read back, replayed and read back again after each
   * crash and makes the next start of the store slower. Paced at 200 ms, the slow writer's
   * streams still made most of 31,676 people streamed in a minute on H2.
   */
  /** The slow writer's pause after every 100 people: a 3,000-person stream stays open about 15 s. */
  static final long SLOW_STREAM_PAUSE_MILLIS_PER_100 = 500;
  /** The fast writer's pause between its streams: the streams the kill waits for come within seconds. */
  static final long FAST_STREAM_GAP_MILLIS = 1_000;

  Load(Service service, Ledger ledger, String prefix, int unaryWriters, int streamWriters) {
    this.service = service;
    this.ledger = ledger;
    this.prefix = prefix;
    this.stopped = new CountDownLatch(unaryWriters + streamWriters);
    for (int w = 0; w < unaryWriters; w++) {
      int writer = w;
      threads.add(new Thread(() -> unary(writer), "unary-" + w));
    }
    for (int w = 0; w < streamWriters; w++) {
      int writer = w;
      // Writer 0 sends slowly: its streams are long-lived, so one is usually open at the crash.
      // The others send each stream at once, one stream a second.
      threads.add(new Thread(() -> streams(writer, writer == 0 ? SLOW_STREAM_PAUSE_MILLIS_PER_100 : 0,
          writer == 0 ? 0 : FAST_STREAM_GAP_MILLIS), "stream-" + w));
    }
  }

  void start() {
    threads.forEach(Thread::start);
  }

  /**
   * Waits until the service acknowledged unary RegisterPerson calls and streams RegisterPeople
   * streams, or until budget passed with at least one of each: a crash only proves something
   * once it lands in real traffic, and a busy machine may take a while to get there.
   */
  void awaitProgress(long unary, long streams, java.time.Duration budget) throws InterruptedException {
    long deadline = System.nanoTime() + budget.toNanos();
    while (ledger.acknowledgedUnary() < unary || ledger.streams(Ledger.StreamState.ANSWERED) < streams) {
      if (!unexpected.isEmpty()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        if (ledger.acknowledgedUnary() == 0 || ledger.streams(Ledger.StreamState.ANSWERED) == 0) {
          throw new IllegalStateException(String.format("in %s the service acknowledged %d RegisterPerson calls and %d"
              + " streams; the crash would prove nothing", budget, ledger.acknowledgedUnary(),
              ledger.streams(Ledger.StreamState.ANSWERED)));
        }
        return;
      }
      Thread.sleep(50);
    }
  }

  /**
   * Calls that failed, never answered, sent before to (when docker said the process was
   * killed) and ended after from (when the kill was issued): unanswered across the kill.
   */
  long cutAcross(long from, long to) {
    return failedSpans.stream().filter(s -> s[0] < to && s[1] > from).count();
  }

  /** Waits until every writer saw the interruption and stopped. */
  void awaitStopped() throws InterruptedException {
    if (!stopped.await(120, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the load did not stop within 120 s of the interruption");
    }
    channels.forEach(ManagedChannel::shutdownNow);
  }

  /** Failures the load met before the interruption: each is a defect of the service. */
  List<String> unexpected() {
    return unexpected;
  }

  private ManagedChannel channel() {
    ManagedChannel channel = service.channel();
    synchronized (channels) {
      channels.add(channel);
    }
    return channel;
  }

  private void unary(int writer) {
    var stub = service.authorized(PersonServiceGrpc.newBlockingStub(channel()));
    try {
      for (int i = 0; ; i++) {
        String requestId = UUID.randomUUID().toString();
        Person person = person(prefix + "u" + writer + "-" + i, i);
        RegisterPersonRequest request = RegisterPersonRequest.newBuilder().setRequestId(requestId).setPerson(person).build();
        while (true) {
          long sent = System.nanoTime();
          try {
            Person stored = stub.withDeadlineAfter(60, TimeUnit.SECONDS).registerPerson(request).getPerson();
            ledger.unary.add(new Ledger.Unary(requestId, person, stored.getId(), Status.Code.OK));
            break;
          } catch (StatusRuntimeException e) {
            failedSpans.add(new long[] {sent, System.nanoTime()});
            Status.Code code = e.getStatus().getCode();
            if (!interrupted.get() && code == Status.Code.UNAVAILABLE) {
              continue; // as a client does: the same request_id again (a busy machine times out the auth call)
            }
            ledger.unary.add(new Ledger.Unary(requestId, person, null, code));
            if (!interrupted.get()) {
              unexpected.add("RegisterPerson " + person.getName() + " failed before the interruption: " + Ledger.describe(e));
            }
            return;
          }
        }
      }
    } finally {
      stopped.countDown();
    }
  }

  private void streams(int writer, long pauseMillisPer100, long gapMillis) {
    var stub = service.authorized(PersonServiceGrpc.newStub(channel()));
    try {
      for (int k = 0; ; k++) {
        // The slow writer's streams span several of the store's batches (500) in one
        // transaction; the fast writer's are a few hundred people at most.
        int size = pauseMillisPer100 > 0 ? 3000 : 50 + (k * 131) % 300;
        List<Person> people = new ArrayList<>(size);
        for (int j = 0; j < size; j++) {
          people.add(person(prefix + "s" + writer + "-" + k + "-" + j, j));
        }
        Ledger.Stream outcome = send(stub, UUID.randomUUID().toString(), people, pauseMillisPer100);
        ledger.streams.add(outcome);
        if (outcome.state() != Ledger.StreamState.ANSWERED) {
          if (interrupted.get()) {
            return;
          }
          if (outcome.code() != Status.Code.UNAVAILABLE) {
            unexpected.add("RegisterPeople stream " + k + " of writer " + writer + " failed before the interruption: "
                + outcome.code());
            return;
          }
          // UNAVAILABLE (the auth call timed out on a busy machine): the ledger holds the stream
          // as it ended, and the writer goes on with the next one.
        }
        if (gapMillis > 0 && !interrupted.get()) {
          Thread.sleep(gapMillis);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      stopped.countDown();
    }
  }

  /** One stream, sent with flow control; pauses pauseMillisPer100 ms after every 100 people. */
  private Ledger.Stream send(
      PersonServiceGrpc.PersonServiceStub stub, String requestId, List<Person> people, long pauseMillisPer100)
      throws InterruptedException {
    CompletableFuture<RegisterPeopleResponse> answer = new CompletableFuture<>();
    CompletableFuture<ClientCallStreamObserver<RegisterPeopleRequest>> started = new CompletableFuture<>();
    Object ready = new Object();
    stub.withDeadlineAfter(120, TimeUnit.SECONDS).registerPeople(new ClientResponseObserver<RegisterPeopleRequest, RegisterPeopleResponse>() {
      @Override
      public void beforeStart(ClientCallStreamObserver<RegisterPeopleRequest> requests) {
        requests.setOnReadyHandler(() -> {
          synchronized (ready) {
            ready.notifyAll();
          }
        });
        started.complete(requests);
      }

      @Override
      public void onNext(RegisterPeopleResponse value) {
        answer.complete(value);
      }

      @Override
      public void onError(Throwable t) {
        answer.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {}
    });
    ClientCallStreamObserver<RegisterPeopleRequest> requests = started.join();
    for (int j = 0; j < people.size(); j++) {
      synchronized (ready) {
        while (!requests.isReady() && !answer.isDone()) {
          ready.wait(100);
        }
      }
      if (answer.isDone()) {
        return outcome(requestId, people, Ledger.StreamState.OPEN, answer);
      }
      RegisterPeopleRequest.Builder message = RegisterPeopleRequest.newBuilder().setPerson(people.get(j));
      if (j == 0) {
        message.setRequestId(requestId);
      }
      requests.onNext(message.build());
      if (pauseMillisPer100 > 0 && j % 100 == 99) {
        Thread.sleep(pauseMillisPer100);
      }
    }
    if (answer.isDone()) {
      return outcome(requestId, people, Ledger.StreamState.OPEN, answer);
    }
    requests.onCompleted();
    try {
      answer.get(90, TimeUnit.SECONDS);
    } catch (Exception e) {
      // recorded below
    }
    return outcome(requestId, people, Ledger.StreamState.HALF_CLOSED, answer);
  }

  private static Ledger.Stream outcome(
      String requestId, List<Person> people, Ledger.StreamState unanswered, CompletableFuture<RegisterPeopleResponse> answer) {
    if (answer.isDone() && !answer.isCompletedExceptionally()) {
      return new Ledger.Stream(requestId, people, Ledger.StreamState.ANSWERED, answer.join().getIdsList(), Status.Code.OK);
    }
    Status.Code code = Status.Code.UNKNOWN;
    if (answer.isDone()) {
      Throwable t = answer.handle((v, e) -> e).join();
      code = Status.fromThrowable(t).getCode();
    }
    return new Ledger.Stream(requestId, people, unanswered, null, code);
  }

  /** A valid person whose name is unique in the run; some with an address and hobbies. */
  static Person person(String name, int i) {
    Person.Builder p = Person.newBuilder().setName(name).setAge(i % 100);
    if (i % 2 == 0) {
      p.setAddress(Address.newBuilder().setCity("Longyearbyen").setZipCode("9170"));
    }
    for (int h = 0; h < i % 3; h++) {
      p.addHobbies("hobby " + h);
    }
    return p.build();
  }
}
