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

/**
 * Every stored person of the run, read back through ListPeople as any client reads them: page
 * after page, each continuing from the last one's next_page_token.
 */
final class ReadBack {
  private static final int PAGE = 10_000;

  private ReadBack() {}

  /** The run's stored people by name (a name is unique to one person of the load). */
  static Map<String, List<Person>> byName(Service service, String prefix) {
    ManagedChannel channel = service.channel();
    try {
      var stub = service.authorized(PersonServiceGrpc.newBlockingStub(channel));
      Map<String, List<Person>> stored = new HashMap<>();
      String token = "";
      do {
        Iterator<ListPeopleResponse> people = stub.withDeadlineAfter(120, TimeUnit.SECONDS)
            .listPeople(ListPeopleRequest.newBuilder().setNameContains(prefix).setLimit(PAGE).setPageToken(token).build());
        token = "";
        while (people.hasNext()) {
          ListPeopleResponse r = people.next();
          stored.computeIfAbsent(r.getPerson().getName(), k -> new ArrayList<>(1)).add(r.getPerson());
          token = r.getNextPageToken();
        }
      } while (!token.isEmpty());
      return stored;
    } finally {
      channel.shutdownNow();
    }
  }
}
