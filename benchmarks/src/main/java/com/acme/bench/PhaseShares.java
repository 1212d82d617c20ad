package com.acme.bench;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ManagedChannel;

/**
 * Scenario 6: where a real request's time goes inside person-spring, read from its own
 * metrics (person_call_phase_seconds at /actuator/prometheus) around n RegisterPerson and n
 * GetPerson calls of the 1 KB person: the mean of each phase per call, and its share of the
 * call's whole time on the server.
 */
final class PhaseShares {
  static final String[] PHASES = {"decode", "auth", "validate", "map", "store", "encode", "total"};

  private final Services services;
  private final Results results;

  PhaseShares(Services services, Results results) {
    this.services = services;
    this.results = results;
  }

  void run(int n, int rep) throws Exception {
    ManagedChannel channel = Services.channel(services.personTarget);
    try {
      var stub = services.authorized(PersonServiceGrpc.newBlockingStub(channel));
      var person = People.ofSize(1 << 10);
      String id = stub.registerPerson(People.request(person)).getPerson().getId();
      GetPersonRequest get = GetPersonRequest.newBuilder().setId(id).build();
      for (int i = 0; i < Math.min(n, 1000); i++) { // warm-up, not counted
        stub.registerPerson(People.request(person));
        stub.getPerson(get);
      }
      Prometheus before = Prometheus.scrape(services.personRest);
      for (int i = 0; i < n; i++) {
        stub.registerPerson(People.request(person));
        stub.getPerson(get);
      }
      Prometheus after = Prometheus.scrape(services.personRest);
      for (String method : new String[] {"RegisterPerson", "GetPerson"}) {
        double calls = delta(before, after, "count", method, "total");
        if (calls != n) {
          throw new IllegalStateException("person-spring counted " + calls + " " + method + " calls of " + n);
        }
        for (String phase : PHASES) {
          double micros = delta(before, after, "sum", method, phase) / calls * 1e6;
          results.add("s6", "person-spring", method, phase, "mean", "us", rep, micros);
        }
      }
    } finally {
      channel.shutdownNow();
    }
  }

  private static double delta(Prometheus before, Prometheus after, String kind, String method, String phase) {
    String name = "person_call_phase_seconds_" + kind;
    String[] labels = {"method=\"" + method + "\"", "phase=\"" + phase + "\""};
    if (!after.has(name, labels)) {
      throw new IllegalStateException("person-spring's metrics have no " + name + " for " + method + " " + phase);
    }
    return after.sum(name, labels) - before.sum(name, labels);
  }
}
