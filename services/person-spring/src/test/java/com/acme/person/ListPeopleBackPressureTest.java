package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.atMost;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import com.acme.person.store.PersonRepository;
import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.ListPeopleResponse;
import com.acme.person.v1.Person;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;

/**
 * ListPeople sends with back-pressure: while the client reads nothing, the server stops at
 * about one flow-control window and stops reading the database; when the client reads again,
 * the rest follows. The repository is the real one, watched by a spy that counts its reads.
 */
class ListPeopleBackPressureTest extends ServiceTestBase {

  private static final int PEOPLE = 200; // 200 × 100 KB = 20 MB, chunks of 16 (ServiceTestBase)

  @MockitoSpyBean PersonRepository repository;

  @Test
  void aReaderThatStopsStopsTheServer() throws Exception {
    String name = People.uniqueName("slow");
    storePeople(People.bigPerson(name, 100 * 1024));

    AtomicInteger received = new AtomicInteger();
    AtomicReference<ClientCallStreamObserver<ListPeopleRequest>> call = new AtomicReference<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    async().listPeople(
        ListPeopleRequest.newBuilder().setNameContains(name).setLimit(PEOPLE).build(),
        new ClientResponseObserver<ListPeopleRequest, ListPeopleResponse>() {
          @Override
          public void beforeStart(ClientCallStreamObserver<ListPeopleRequest> requestStream) {
            call.set(requestStream);
            requestStream.disableAutoRequestWithInitial(1);
          }

          @Override public void onNext(ListPeopleResponse value) { received.incrementAndGet(); }
          @Override public void onError(Throwable t) { done.completeExceptionally(t); }
          @Override public void onCompleted() { done.complete(null); }
        });

    Thread.sleep(1500); // ample time to read all 13 chunks if nothing held the server back
    assertThat(received.get()).isEqualTo(1);
    // One window (1 MiB) is ~10 people: the server may have read a chunk or two, not 13.
    verify(repository, atMost(2)).findPage(any(), any(), anyInt());

    call.get().request(Integer.MAX_VALUE);
    done.get(30, TimeUnit.SECONDS);
    assertThat(received.get()).isEqualTo(PEOPLE);
    verify(repository, times((PEOPLE + 15) / 16)).findPage(any(), any(), anyInt());
  }

  private void storePeople(Person person) throws Exception {
    CompletableFuture<RegisterPeopleResponse> stored = new CompletableFuture<>();
    StreamObserver<RegisterPeopleRequest> out = async().registerPeople(new StreamObserver<>() {
      @Override public void onNext(RegisterPeopleResponse value) { stored.complete(value); }
      @Override public void onError(Throwable t) { stored.completeExceptionally(t); }
      @Override public void onCompleted() {}
    });
    for (int i = 0; i < PEOPLE; i++) {
      out.onNext(People.registerMany(person));
    }
    out.onCompleted();
    assertThat(stored.get(60, TimeUnit.SECONDS).getCount()).isEqualTo(PEOPLE);
  }
}
