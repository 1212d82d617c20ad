package com.acme.person;

import static com.acme.person.People.person;
import static com.acme.person.People.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.Person;
import com.acme.person.v1.RegisterPersonRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Many callers at once share commits (group commit): every person is stored once, and callers
 * that send the same request_id at the same time — in one group or in two — all get the one
 * person it stored.
 */
class ConcurrentRegistrationTest extends ServiceTestBase {

  @Test
  void concurrentCallersWithRepeatedRequestIdsStoreEachPersonOnce() throws Exception {
    String name = uniqueName("crowd");
    int distinct = 200;
    int copies = 3;
    List<RegisterPersonRequest> requests = new ArrayList<>();
    for (int i = 0; i < distinct; i++) {
      Person p = person(name + "-" + i, i % 100);
      RegisterPersonRequest r = RegisterPersonRequest.newBuilder().setRequestId(UUID.randomUUID().toString()).setPerson(p).build();
      for (int c = 0; c < copies; c++) {
        requests.add(r);
      }
    }
    java.util.Collections.shuffle(requests, new java.util.Random(7));

    Map<String, String> idByRequest = new ConcurrentHashMap<>();
    List<String> disagreements = java.util.Collections.synchronizedList(new ArrayList<>());
    ExecutorService callers = Executors.newFixedThreadPool(32);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<?>> calls = new ArrayList<>();
      for (RegisterPersonRequest r : requests) {
        calls.add(callers.submit(() -> {
          go.await();
          String id = blocking().registerPerson(r).getPerson().getId();
          String first = idByRequest.putIfAbsent(r.getRequestId(), id);
          if (first != null && !first.equals(id)) {
            disagreements.add(r.getRequestId());
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<?> call : calls) {
        call.get(60, TimeUnit.SECONDS);
      }
    } finally {
      callers.shutdownNow();
    }
    assertThat(disagreements).isEmpty();
    assertThat(idByRequest).hasSize(distinct);
    assertThat(rowsNamed(name + "-")).isEqualTo(distinct);
  }
}
