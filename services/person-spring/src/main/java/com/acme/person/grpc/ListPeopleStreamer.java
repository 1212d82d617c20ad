package com.acme.person.grpc;

import com.acme.person.domain.PersonDto;
import com.acme.person.domain.PersonFilter;
import com.acme.person.error.ErrorMapper;
import com.acme.person.mapping.PersonMapper;
import com.acme.person.service.PageTokens;
import com.acme.person.service.PersonRegistry;
import com.acme.person.store.PageCursor;
import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.ListPeopleResponse;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayDeque;
import java.util.List;

/**
 * One ListPeople stream, sent with back-pressure: it only sends while the transport is ready
 * and resumes from the on-ready callback, and it reads the database a chunk at a time (keyset
 * paging), so a slow reader holds at most one chunk in memory, not the page.
 *
 * <p>A page starts at page * limit matches, or after the person a page_token names; its last
 * message carries next_page_token when more people match (the last read asks for one person
 * more than the page needs, to know).
 */
final class ListPeopleStreamer implements Runnable {

  private final ServerCallStreamObserver<ListPeopleResponse> out;
  private final PersonRegistry registry;
  private final PersonMapper mapper;
  private final ErrorMapper errors;
  private final PersonFilter filter;
  private final String pageToken;
  private final int chunkSize;
  private final ArrayDeque<PersonDto> buffer = new ArrayDeque<>();
  private PageCursor last;
  private int remaining;
  private boolean exhausted;
  private boolean more;
  private boolean finished;
  private volatile boolean cancelled;

  ListPeopleStreamer(
      ServerCallStreamObserver<ListPeopleResponse> out,
      PersonRegistry registry,
      PersonMapper mapper,
      ErrorMapper errors,
      ListPeopleRequest request,
      int chunkSize) {
    this.out = out;
    this.registry = registry;
    this.mapper = mapper;
    this.errors = errors;
    this.filter = filter(request);
    this.pageToken = request.getPageToken();
    this.chunkSize = chunkSize;
    this.remaining = filter.limit();
  }

  /** The request's filter and page. */
  static PersonFilter filter(ListPeopleRequest request) {
    return new PersonFilter(
        request.getNameContains(),
        request.hasMinAge() ? request.getMinAge() : null,
        request.hasMaxAge() ? request.getMaxAge() : null,
        request.getPage(),
        request.getLimit() == 0 ? PersonFilter.DEFAULT_LIMIT : request.getLimit());
  }

  void start() {
    out.setOnCancelHandler(() -> cancelled = true);
    if (!pageToken.isEmpty()) {
      try {
        if (filter.page() != 0) {
          throw PageTokens.pageWithToken();
        }
        last = registry.pageCursor(pageToken, filter);
      } catch (RuntimeException e) {
        finished = true;
        out.onError(errors.toGrpc(e));
        return;
      }
    }
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
        ListPeopleResponse.Builder message = ListPeopleResponse.newBuilder().setPerson(mapper.toProto(next));
        if (more && buffer.isEmpty() && exhausted) {
          message.setNextPageToken(registry.pageToken(next, filter));
        }
        out.onNext(message.build());
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
    // The page's last read looks one person further: is there a next page?
    int ask = want == remaining ? want + 1 : want;
    List<PersonDto> chunk = registry.listAfter(filter, last, ask);
    if (chunk.size() > want) {
      more = true;
      chunk = chunk.subList(0, want);
    }
    remaining -= chunk.size();
    exhausted = chunk.size() < want || remaining == 0;
    if (!chunk.isEmpty()) {
      PersonDto end = chunk.get(chunk.size() - 1);
      last = new PageCursor(end.createdAt(), end.id());
    }
    buffer.addAll(chunk);
  }
}
