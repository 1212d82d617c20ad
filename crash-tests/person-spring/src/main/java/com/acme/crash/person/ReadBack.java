package com.acme.crash.person;

import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.ListPeopleResponse;
import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Every stored person of the run, read back through ListPeople as any client reads them. */
final class ReadBack {
  private static final int PAGE = 10_000;

  private ReadBack() {}

  /** The run's stored people by name (a name is unique to one person of the load). */
  static Map<String, List<Person>> byName(Service service, String prefix) {
    ManagedChannel channel = service.channel();
    try {
      var stub = service.authorized(PersonServiceGrpc.newBlockingStub(channel));
      Map<String, List<Person>> stored = new HashMap<>();
      for (int page = 0; ; page++) {
        Iterator<ListPeopleResponse> people = stub.withDeadlineAfter(120, TimeUnit.SECONDS)
            .listPeople(ListPeopleRequest.newBuilder().setNameContains(prefix).setLimit(PAGE).setPage(page).build());
        int n = 0;
        while (people.hasNext()) {
          Person p = people.next().getPerson();
          stored.computeIfAbsent(p.getName(), k -> new ArrayList<>(1)).add(p);
          n++;
        }
        if (n < PAGE) {
          return stored;
        }
      }
    } finally {
      channel.shutdownNow();
    }
  }
}
