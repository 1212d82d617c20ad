package com.acme.bench;

import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Scenario 7 (many uploaders at once): U concurrent RegisterPeople uploaders, each a client of
 * its own (its own channel, so its own HTTP/2 connection), each streaming P people as fast as
 * flow control lets it (StreamFeeder), all started together. Per U: people stored per second
 * (the sum of the answers' counts, from the first stream's start to the last answer), refusals
 * (streams that did not end OK: the target is none), people missing (sent but not in an OK
 * answer's count: the target is none), and the service's peak resident memory
 * while they ran (VmRSS of the container's process, sampled every 50 ms). Then the trial that
 * found the old limit, with the Python SDK: 64 clients each streaming 10 people over one second
 * (benchmarks/python/uploaders.py).
 */
final class ConcurrentUploads {
  /** The Python SDK's trial: clients, people each, seconds each stream takes to send them. */
  static final int PYTHON_CLIENTS = 64;
  static final int PYTHON_PEOPLE = 10;
  static final double PYTHON_SECONDS = 1.0;

  private final Services services;
  private final Results results;
  private final Path root;
  private final String python;

  ConcurrentUploads(Services services, Results results, Path root, String python) {
    this.services = services;
    this.results = results;
    this.root = root;
    this.python = python;
  }

  void run(int[] uploaders, int people, int rep) throws Exception {
    for (int u : uploaders) {
      upload(u, people, rep);
    }
    pythonTrial(rep);
  }

  private void upload(int uploaders, int people, int rep) throws Exception {
    List<ManagedChannel> channels = new ArrayList<>();
    for (int i = 0; i < uploaders; i++) {
      channels.add(Services.channel(services.personTarget));
    }
    Person person = People.penguin();
    RegisterPeopleRequest message = RegisterPeopleRequest.newBuilder().setPerson(person).build();
    // The token's answer fresh in person-spring's cache, as in a service that has been serving:
    // this measures the store's side, not one token check at the moment of the burst.
    services.authorized(PersonServiceGrpc.newBlockingStub(channels.get(0))).withDeadlineAfter(30, TimeUnit.SECONDS)
        .registerPerson(People.request(person));
    try (PeakRss rss = new PeakRss(services.personContainer)) {
      long start = System.nanoTime();
      List<CompletableFuture<RegisterPeopleResponse>> answers = new ArrayList<>();
      for (ManagedChannel channel : channels) {
        var stub = services.authorized(PersonServiceGrpc.newStub(channel)).withDeadlineAfter(10, TimeUnit.MINUTES);
        answers.add(StreamFeeder.feed(stub::registerPeople, people, i -> message));
      }
      long stored = 0;
      int refused = 0;
      String firstError = null;
      for (CompletableFuture<RegisterPeopleResponse> answer : answers) {
        try {
          stored += answer.get(10, TimeUnit.MINUTES).getCount();
        } catch (java.util.concurrent.ExecutionException e) {
          refused++;
          if (firstError == null) {
            firstError = Status.fromThrowable(e.getCause()).toString();
          }
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      results.add("s7", "person-spring", "grpc-java", uploaders, "stored", "people/s", rep, stored / seconds);
      results.add("s7", "person-spring", "grpc-java", uploaders, "refused", "streams", rep, refused);
      results.add("s7", "person-spring", "grpc-java", uploaders, "missing", "people", rep, (double) uploaders * people - stored);
      results.add("s7", "person-spring", "grpc-java", uploaders, "peak-rss", "MiB", rep, rss.peakMib());
      if (firstError != null) {
        results.note("s7 " + uploaders + " uploaders rep " + rep + ": " + refused + " refused, first: " + firstError);
      }
    } finally {
      channels.forEach(ManagedChannel::shutdownNow);
    }
  }

  /** The Python SDK's trial (benchmarks/python/uploaders.py): every client must get OK. */
  private void pythonTrial(int rep) throws Exception {
    String out = External.run(
        List.of(python, root.resolve("benchmarks/python/uploaders.py").toString(), services.personTarget,
            String.valueOf(PYTHON_CLIENTS), String.valueOf(PYTHON_PEOPLE), String.valueOf(PYTHON_SECONDS)),
        Map.of("BENCH_TOKEN", services.token));
    JsonNode json = JsonMapper.builder().build().readTree(out.lines().reduce((a, b) -> b).orElse(""));
    results.add("s7", "person-spring", "python", PYTHON_CLIENTS, "ok", "streams", rep, json.path("ok").asDouble());
    results.add("s7", "person-spring", "python", PYTHON_CLIENTS, "refused", "streams", rep, json.path("failed").asDouble());
    results.add("s7", "person-spring", "python", PYTHON_CLIENTS, "stored", "people", rep, json.path("stored").asDouble());
    // Found by ListPeople afterwards, not taken from the answers: every person sent must be there.
    results.add("s7", "person-spring", "python", PYTHON_CLIENTS, "missing", "people", rep,
        PYTHON_CLIENTS * PYTHON_PEOPLE - json.path("stored").asDouble());
    if (json.path("failed").asInt() > 0) {
      results.note("s7 Python SDK rep " + rep + ": " + json.path("failed").asInt() + " of " + PYTHON_CLIENTS
          + " failed, first: " + json.path("first_error").asText());
    }
  }

  /** The highest resident memory of a container's main process while this is open. */
  static final class PeakRss implements AutoCloseable {
    private final Path status;
    private final AtomicLong peakKib = new AtomicLong();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "peak-rss");
      t.setDaemon(true);
      return t;
    });

    PeakRss(String container) throws IOException, InterruptedException {
      String pid = External.run(List.of("docker", "inspect", "-f", "{{.State.Pid}}", container), Map.of()).trim();
      status = Path.of("/proc", pid, "status");
      sample();
      sampler.scheduleAtFixedRate(this::sample, 50, 50, TimeUnit.MILLISECONDS);
    }

    private void sample() {
      try {
        for (String line : Files.readAllLines(status)) {
          if (line.startsWith("VmRSS:")) {
            long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
            peakKib.accumulateAndGet(kib, Math::max);
          }
        }
      } catch (IOException | RuntimeException e) {
        // The process went away: its peak so far stands.
      }
    }

    double peakMib() {
      sample();
      return peakKib.get() / 1024.0;
    }

    @Override
    public void close() {
      sampler.shutdownNow();
    }
  }
}
