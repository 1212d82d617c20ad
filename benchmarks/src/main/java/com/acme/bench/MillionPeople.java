package com.acme.bench;

import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.ListPeopleResponse;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A directory of N people (a million in make bench) in one store, through the service as any
 * client uses it: loaded with RegisterPeople streams, then the service stopped and started again
 * (the store as it lies on disk), then: bytes on disk per person; the first page of 100 of each
 * search (Directory.SEARCHES); a deep page of a common search (page 50 of a million; page 2 of
 * the smoke's directory, which has fewer) by page token and by page number against its first page; and every person listed unfiltered in pages of 10,000 by token, with
 * the service's memory watched while it streams (read 1,000 messages ahead; a tenth again
 * through the blocking iterator, which reads one at a time).
 */
final class MillionPeople {
  static final int PAGE = 100;
  private static final int LISTING_PAGE = 10_000;

  private final StoreBench.Env env;
  private final Results results;
  private final String label;

  MillionPeople(StoreBench.Env env, Results results, String label) {
    this.env = env;
    this.results = results;
    this.label = label;
  }

  void run(int people, int reps, int deep) throws Exception {
    long start = System.nanoTime();
    load(people);
    double loadSeconds = (System.nanoTime() - start) / 1e9;
    results.add("million", label, "load", people, "throughput", "people/s", 1, people / loadSeconds);
    StoreBench.log("%s: %,d people loaded in %.1f s", label, people, loadSeconds);

    env.container.restart();
    env.analyze();
    long bytes = env.storedBytes();
    results.add("million", label, "disk", people, "bytes-per-person", "B", 1, (double) bytes / people);
    StoreBench.log("%s: %,d bytes on disk, %.0f a person", label, bytes, (double) bytes / people);

    ManagedChannel channel = Services.channel(env.container.target());
    try {
      var stub = StoreBench.authorized(PersonServiceGrpc.newBlockingStub(channel), env.token);
      for (String q : Directory.SEARCHES) {
        for (int i = 0; i < 3; i++) {
          firstPage(stub, ListPeopleRequest.newBuilder().setNameContains(q).setLimit(PAGE));
        }
      }
      for (int rep = 1; rep <= reps; rep++) {
        for (String q : Directory.SEARCHES) {
          long t = System.nanoTime();
          int n = firstPage(stub, ListPeopleRequest.newBuilder().setNameContains(q).setLimit(PAGE));
          results.add("million", label, "search", q, "first-page", "ms", rep, (System.nanoTime() - t) / 1e6);
          results.add("million", label, "search", q, "returned", "people", rep, n);
        }
      }
      deepPages(stub, reps, deep);
      listing(stub, StoreBench.authorized(PersonServiceGrpc.newStub(channel), env.token), people);
    } finally {
      channel.shutdownNow();
    }
  }

  /** People streamed in by two RegisterPeople streams at a time, each with a request_id. */
  private void load(int people) throws Exception {
    ManagedChannel channel = Services.channel(env.container.target());
    try {
      var stub = StoreBench.authorized(PersonServiceGrpc.newStub(channel), env.token);
      int perStream = Math.max(1, Math.min(50_000, people / 4));
      Directory directory = new Directory(2026);
      List<CompletableFuture<RegisterPeopleResponse>> open = new ArrayList<>();
      for (int sent = 0; sent < people; ) {
        int n = Math.min(perStream, people - sent);
        List<RegisterPeopleRequest> stream = new ArrayList<>(n);
        String requestId = UUID.randomUUID().toString();
        for (int i = 0; i < n; i++) {
          RegisterPeopleRequest.Builder m = RegisterPeopleRequest.newBuilder().setPerson(directory.next());
          stream.add((i == 0 ? m.setRequestId(requestId) : m).build());
        }
        open.add(StreamFeeder.feed(stub.withDeadlineAfter(30, TimeUnit.MINUTES)::registerPeople, n, stream::get));
        sent += n;
        if (open.size() == 2) {
          expect(open.remove(0), perStream);
        }
      }
      for (CompletableFuture<RegisterPeopleResponse> f : open) {
        f.get(30, TimeUnit.MINUTES);
      }
    } finally {
      channel.shutdownNow();
    }
  }

  private static void expect(CompletableFuture<RegisterPeopleResponse> stream, int count) throws Exception {
    long stored = stream.get(30, TimeUnit.MINUTES).getCount();
    if (stored != count) {
      throw new IllegalStateException("a stream stored " + stored + " of " + count);
    }
  }

  /**
   * The common search's page deep: reached once by walking the tokens, then timed beside its
   * first page, and beside the same page asked by number (which counts every match before it).
   */
  private void deepPages(PersonServiceGrpc.PersonServiceBlockingStub stub, int reps, int deep) {
    String q = Directory.SEARCHES[0];
    String token = "";
    for (int page = 1; page < deep; page++) {
      token = lastToken(stub.withDeadlineAfter(5, TimeUnit.MINUTES)
          .listPeople(ListPeopleRequest.newBuilder().setNameContains(q).setLimit(PAGE).setPageToken(token).build()));
      if (token.isEmpty()) {
        throw new IllegalStateException("\"" + q + "\" has fewer than " + deep + " pages");
      }
    }
    results.add("million", label, "deep", q, "page", "page", 1, deep);
    for (int rep = 1; rep <= reps; rep++) {
      long t = System.nanoTime();
      firstPage(stub, ListPeopleRequest.newBuilder().setNameContains(q).setLimit(PAGE));
      results.add("million", label, "deep", q, "page-1", "ms", rep, (System.nanoTime() - t) / 1e6);
      t = System.nanoTime();
      firstPage(stub, ListPeopleRequest.newBuilder().setNameContains(q).setLimit(PAGE).setPageToken(token));
      results.add("million", label, "deep", q, "deep-by-token", "ms", rep, (System.nanoTime() - t) / 1e6);
      t = System.nanoTime();
      firstPage(stub, ListPeopleRequest.newBuilder().setNameContains(q).setLimit(PAGE).setPage(deep - 1));
      results.add("million", label, "deep", q, "deep-by-number", "ms", rep, (System.nanoTime() - t) / 1e6);
    }
  }

  /** Every person, unfiltered, in pages by token; the service's resident memory sampled meanwhile. */
  private void listing(PersonServiceGrpc.PersonServiceBlockingStub stub, PersonServiceGrpc.PersonServiceStub async, int people)
      throws Exception {
    List<double[]> samples = new ArrayList<>(); // (people listed so far, MB)
    long[] listed = {0};
    AtomicBoolean done = new AtomicBoolean();
    Thread watcher = new Thread(() -> {
      while (!done.get()) {
        try {
          double mb = env.residentMb();
          synchronized (samples) {
            samples.add(new double[] {listed[0], mb});
          }
          Thread.sleep(250);
        } catch (Exception e) {
          return;
        }
      }
    }, "memory-watcher");
    watcher.setDaemon(true);
    watcher.start();
    long start = System.nanoTime();
    String token = "";
    do {
      token = readAhead(async, token, listed);
    } while (!token.isEmpty());
    double seconds = (System.nanoTime() - start) / 1e9;
    done.set(true);
    watcher.join(5000);
    if (listed[0] < people) {
      throw new IllegalStateException("listed " + listed[0] + " of " + people + " people");
    }
    results.add("million", label, "listing", people, "throughput", "people/s", 1, listed[0] / seconds);
    // The same pages read through the blocking stub's iterator, which asks for one message at
    // a time (a hop to the transport thread and back for each): what the plainest client gets.
    // Its first pages only, a tenth of the directory.
    long blockingStart = System.nanoTime();
    long blockingListed = 0;
    token = "";
    do {
      Iterator<ListPeopleResponse> page = stub.withDeadlineAfter(10, TimeUnit.MINUTES)
          .listPeople(ListPeopleRequest.newBuilder().setLimit(LISTING_PAGE).setPageToken(token).build());
      token = "";
      while (page.hasNext()) {
        token = page.next().getNextPageToken();
        blockingListed++;
      }
    } while (!token.isEmpty() && blockingListed < people / 10);
    results.add("million", label, "listing", people, "blocking-iterator", "people/s", 1,
        blockingListed / ((System.nanoTime() - blockingStart) / 1e9));
    // Flat: what the service holds after a tenth of the listing is what it holds at the end.
    double early = Double.NaN;
    double peak = 0;
    synchronized (samples) {
      for (double[] s : samples) {
        if (Double.isNaN(early) && s[0] >= people / 10.0) {
          early = s[1];
        }
        if (!Double.isNaN(early)) {
          peak = Math.max(peak, s[1]);
        }
      }
    }
    if (!Double.isNaN(early)) {
      results.add("million", label, "listing", people, "rss-at-10%", "MB", 1, early);
      results.add("million", label, "listing", people, "rss-growth", "MB", 1, peak - early);
    }
    StoreBench.log("%s: listed %,d people in %.1f s (%,.0f/s); memory %.0f MB at 10 %%, peak %.0f MB", label, listed[0],
        seconds, listed[0] / seconds, early, peak);
  }

  /** Messages a listing asks for at a time (gRPC flow control), instead of one by one. */
  private static final int READ_AHEAD = 1_000;

  /**
   * One page, read as a consumer that keeps up reads a stream: asking for READ_AHEAD messages at
   * a time, so the client's transport thread hands them over in runs. Counts into listed;
   * returns the page's next_page_token ("" at the end).
   */
  private static String readAhead(PersonServiceGrpc.PersonServiceStub async, String token, long[] listed) throws Exception {
    CompletableFuture<String> next = new CompletableFuture<>();
    async.withDeadlineAfter(10, TimeUnit.MINUTES).listPeople(
        ListPeopleRequest.newBuilder().setLimit(LISTING_PAGE).setPageToken(token).build(),
        new ClientResponseObserver<ListPeopleRequest, ListPeopleResponse>() {
          private ClientCallStreamObserver<ListPeopleRequest> call;
          private int received;
          private String nextToken = "";

          @Override
          public void beforeStart(ClientCallStreamObserver<ListPeopleRequest> call) {
            this.call = call;
            call.disableAutoRequestWithInitial(READ_AHEAD);
          }

          @Override
          public void onNext(ListPeopleResponse message) {
            listed[0]++;
            if (!message.getNextPageToken().isEmpty()) {
              nextToken = message.getNextPageToken();
            }
            if (++received % READ_AHEAD == 0) {
              call.request(READ_AHEAD);
            }
          }

          @Override
          public void onError(Throwable t) {
            next.completeExceptionally(t);
          }

          @Override
          public void onCompleted() {
            next.complete(nextToken);
          }
        });
    return next.get(10, TimeUnit.MINUTES);
  }

  private static int firstPage(PersonServiceGrpc.PersonServiceBlockingStub stub, ListPeopleRequest.Builder request) {
    int n = 0;
    Iterator<ListPeopleResponse> it = stub.withDeadlineAfter(5, TimeUnit.MINUTES).listPeople(request.build());
    while (it.hasNext()) {
      it.next();
      n++;
    }
    return n;
  }

  private static String lastToken(Iterator<ListPeopleResponse> page) {
    String token = "";
    while (page.hasNext()) {
      token = page.next().getNextPageToken();
    }
    return token;
  }
}
