package com.acme.person.grpc;

import com.acme.person.domain.PersonDto;
import com.acme.person.domain.PersonFilter;
import com.acme.person.error.ErrorMapper;
import com.acme.person.mapping.PersonMapper;
import com.acme.person.service.PersonRegistry;
import com.acme.person.v1.ListPeopleResponse;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayDeque;
import java.util.List;

/**
 * One ListPeople stream, sent with back-pressure: it only sends while the transport is ready
 * and resumes from the on-ready callback, and it reads the database a chunk at a time (keyset
 * paging), so a slow reader holds at most one chunk in memory, not the page.
 */
final class ListPeopleStreamer implements Runnable {

  private final ServerCallStreamObserver<ListPeopleResponse> out;
  private final PersonRegistry registry;
  private final PersonMapper mapper;
  private final ErrorMapper errors;
  private final PersonFilter filter;
  private final int chunkSize;
  private final ArrayDeque<PersonDto> buffer = new ArrayDeque<>();
  private PersonDto last;
  private int remaining;
  private boolean exhausted;
  private boolean finished;
  private volatile boolean cancelled;

  ListPeopleStreamer(
      ServerCallStreamObserver<ListPeopleResponse> out,
      PersonRegistry registry,
      PersonMapper mapper,
      ErrorMapper errors,
      PersonFilter filter,
      int chunkSize) {
    this.out = out;
    this.registry = registry;
    this.mapper = mapper;
    this.errors = errors;
    this.filter = filter;
    this.chunkSize = chunkSize;
    this.remaining = filter.limit();
  }

  void start() {
    out.setOnCancelHandler(() -> cancelled = true);
    out.setOnReadyHandler(this);
    // The transport's first on-ready may have fired before the handler was set.
    run();
  }

  /** Sends while the client can take more; called again by gRPC when it can. */
  @Override
  public synchronized void run() {
    if (finished) {
      return;
    }
    try {
      while (!cancelled && out.isReady()) {
        if (buffer.isEmpty() && !exhausted) {
          fill();
        }
        PersonDto next = buffer.poll();
        if (next == null) {
          finished = true;
          out.onCompleted();
          return;
        }
        out.onNext(ListPeopleResponse.newBuilder().setPerson(mapper.toProto(next)).build());
      }
      finished = cancelled;
    } catch (RuntimeException e) {
      finished = true;
      if (!cancelled) {
        out.onError(errors.toGrpc(e));
      }
    }
  }

  private void fill() {
    int want = Math.min(chunkSize, remaining);
    if (want == 0) {
      exhausted = true;
      return;
    }
    List<PersonDto> chunk = registry.listAfter(filter, last, want);
    remaining -= chunk.size();
    exhausted = chunk.size() < want || remaining == 0;
    if (!chunk.isEmpty()) {
      last = chunk.get(chunk.size() - 1);
    }
    buffer.addAll(chunk);
  }
}
