package com.acme.crash.person;

import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import com.acme.person.v1.RegisterPersonRequest;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * After the restart every call of the load is sent again with its request_id, as a client that
 * never saw an answer (or lost it) would: an acknowledged one must get the same answer back —
 * the idempotency record survived as well as the person — and a failed one is stored now.
 */
final class Replay {
  private Replay() {}

  static void all(Service service, Ledger ledger, Verdict verdict) throws Exception {
    ManagedChannel channel = service.channel();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      var blocking = service.authorized(PersonServiceGrpc.newBlockingStub(channel));
      List<Future<?>> calls = new ArrayList<>();
      for (Ledger.Unary u : ledger.unary) {
        calls.add(pool.submit(() -> {
          try {
            Person again = blocking.withDeadlineAfter(30, TimeUnit.SECONDS).registerPerson(
                RegisterPersonRequest.newBuilder().setRequestId(u.requestId()).setPerson(u.person()).build()).getPerson();
            if (u.acknowledged() && !again.getId().equals(u.id())) {
              verdict.fail("replayed request_id answered with another person",
                  u.person().getName() + " " + u.id() + " != " + again.getId());
            }
          } catch (StatusRuntimeException e) {
            verdict.fail("replayed RegisterPerson failed", u.person().getName() + " " + Ledger.describe(e));
          }
        }));
      }
      // The streams on the same writers as the calls, as many at a time as there are writers:
      // one after the other, a replay of a few hundred streams took minutes.
      var async = service.authorized(PersonServiceGrpc.newStub(channel));
      for (Ledger.Stream s : ledger.streams) {
        calls.add(pool.submit(() -> {
          RegisterPeopleResponse again;
          try {
            again = stream(async, s).get(2, TimeUnit.MINUTES);
          } catch (java.util.concurrent.ExecutionException e) {
            verdict.fail("replayed RegisterPeople stream failed", s.requestId() + " " + Ledger.describe(e.getCause()));
            return null;
          }
          if (again.getCount() != s.people().size()) {
            verdict.fail("replayed stream answered another count", s.requestId() + ": " + again.getCount());
          } else if (s.state() == Ledger.StreamState.ANSWERED && !again.getIdsList().equals(s.ids())) {
            verdict.fail("replayed request_id answered with other ids", s.requestId());
          }
          return null;
        }));
      }
      for (Future<?> call : calls) {
        call.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
      channel.shutdownNow();
    }
  }

  private static CompletableFuture<RegisterPeopleResponse> stream(PersonServiceGrpc.PersonServiceStub stub, Ledger.Stream s) {
    CompletableFuture<RegisterPeopleResponse> answer = new CompletableFuture<>();
    StreamObserver<RegisterPeopleRequest> out = stub.withDeadlineAfter(2, TimeUnit.MINUTES).registerPeople(new StreamObserver<>() {
      @Override public void onNext(RegisterPeopleResponse value) { answer.complete(value); }
      @Override public void onError(Throwable t) { answer.completeExceptionally(t); }
      @Override public void onCompleted() {}
    });
    // Small streams (at most a few thousand people): the transport's buffer holds them.
    for (int j = 0; j < s.people().size(); j++) {
      RegisterPeopleRequest.Builder m = RegisterPeopleRequest.newBuilder().setPerson(s.people().get(j));
      if (j == 0) {
        m.setRequestId(s.requestId());
      }
      out.onNext(m.build());
    }
    out.onCompleted();
    return answer;
  }
}
