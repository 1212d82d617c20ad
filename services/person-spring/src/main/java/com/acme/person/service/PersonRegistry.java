package com.acme.person.service;

import com.acme.person.config.PersonProperties;
import com.acme.person.domain.PersonDto;
import com.acme.person.domain.PersonFilter;
import com.acme.person.domain.PersonNotFoundException;
import com.acme.person.domain.RequestIdConflictException;
import com.acme.person.store.GroupCommit;
import com.acme.person.store.IdentityAssigner;
import com.acme.person.store.PageCursor;
import com.acme.person.store.PeopleBatchWriter;
import com.acme.person.store.PersonRepository;
import com.acme.person.store.PersonStore;
import com.acme.person.store.StoredStream;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;

/**
 * The registry's rules, independent of gRPC and HTTP: every read and write of people goes
 * through here (the gRPC and REST layers never touch the store), with idempotency and
 * all-or-nothing streams. A write is answered only once the store has made it survive a crash
 * of the process (PersonStore).
 *
 * <p>With person.benchmark.transport-only (PERSON_TRANSPORT_ONLY) nothing is stored: writes are
 * answered as if they had been, reads find nobody. The benchmarks use it to measure the
 * transport without the store; the service says so loudly when it starts.
 */
@Service
public class PersonRegistry {
  private static final Logger log = LoggerFactory.getLogger(PersonRegistry.class);

  /** RegisterPeopleResponse lists ids only for streams of at most this many people. */
  public static final int MAX_LISTED_IDS = 10_000;

  private final PersonStore store;
  private final PersonRepository repository;
  private final IdentityAssigner identity;
  private final PageTokens pageTokens;
  private final int batchSize;
  private final boolean transportOnly;

  public PersonRegistry(
      PersonStore store,
      IdentityAssigner identity,
      PageTokens pageTokens,
      PersonProperties properties,
      @Value("${person.benchmark.transport-only:false}") boolean transportOnly) {
    this.store = store;
    this.repository = store.repository();
    this.identity = identity;
    this.pageTokens = pageTokens;
    this.batchSize = properties.registerPeople().batchSize();
    this.transportOnly = transportOnly;
    if (transportOnly) {
      log.warn("TRANSPORT-ONLY MODE (person.benchmark.transport-only): requests are validated and answered,"
          + " NOTHING IS STORED. For benchmarks of the transport only.");
    }
  }

  /**
   * Stores a person once per requestId (null or empty: no idempotency). A repeat with the same
   * person returns the first result; with a different person it is a conflict. Concurrent
   * callers share commits (GroupCommit); the answer comes once the person is durable.
   */
  public PersonDto register(String requestId, PersonDto person) {
    String id = requestId == null || requestId.isEmpty() ? null : requestId;
    PersonDto assigned = identity.assign(person);
    if (transportOnly) {
      return assigned;
    }
    String hash = Fingerprints.of(person);
    GroupCommit.Outcome outcome = store.register(id, hash, assigned);
    if (outcome.earlierHash() != null && !outcome.earlierHash().equals(hash)) {
      throw new RequestIdConflictException(id);
    }
    return outcome.person();
  }

  public PersonDto get(String id) {
    if (transportOnly) {
      throw new PersonNotFoundException(id);
    }
    return store.read(() -> repository.findById(id)).orElseThrow(() -> new PersonNotFoundException(id));
  }

  /**
   * Up to max people of the filter's page, in created_at order, after the person given (null:
   * from the page's start). Read by keyset, so a streamed page costs one query per chunk.
   */
  public List<PersonDto> listAfter(PersonFilter filter, PersonDto after, int max) {
    return listAfter(filter, after == null ? null : new PageCursor(after.createdAt(), after.id()), max);
  }

  /** Up to max people of the filter after the cursor (null: from the page's start). */
  public List<PersonDto> listAfter(PersonFilter filter, PageCursor after, int max) {
    if (transportOnly) {
      return List.of();
    }
    return store.read(() -> repository.findPage(filter, after, max));
  }

  /** The page token that continues filter's listing after last. */
  public String pageToken(PersonDto last, PersonFilter filter) {
    return pageTokens.after(last, filter);
  }

  /** Where a page token continues filter's listing; INVALID_ARGUMENT if it is not one of ours for it. */
  public PageCursor pageCursor(String pageToken, PersonFilter filter) {
    return pageTokens.cursor(pageToken, filter);
  }

  /**
   * Stores every person of the source in one transaction, in batches, so memory stays bounded
   * by the batch size. Rolls back (and rethrows) if the source aborts or anything fails. The
   * answer comes once the stream is durable.
   *
   * <p>A stream with a request_id is idempotent on it: one that repeats an earlier committed
   * stream (same request_id, same people in the same order) stores nothing and gets the earlier
   * answer; different people under that request_id are a conflict. The repeat is recognised
   * before anything is written, or — when two such streams run at once — at commit, where the
   * request_id's primary key lets only the first commit.
   */
  public RegisteredPeople registerAll(PersonSource source) {
    // Wait for the first message outside the transaction: a stream that is slow to start
    // must not hold a database connection.
    PersonDto first = next(source);
    String requestId = source.requestId();
    Fingerprints.Stream fingerprint = new Fingerprints.Stream();
    if (transportOnly) {
      PeopleBatchWriter writer = new PeopleBatchWriter(batchSize, MAX_LISTED_IDS, (batch, position) -> {}, identity);
      for (PersonDto p = first; p != null; p = next(source)) {
        writer.add(p);
      }
      source.checkNotAborted();
      return new RegisteredPeople(writer.count(), writer.ids());
    }
    if (requestId != null) {
      Optional<StoredStream> earlier = store.read(() -> repository.findStream(requestId));
      if (earlier.isPresent()) {
        for (PersonDto p = first; p != null; p = next(source)) {
          fingerprint.add(p);
        }
        source.checkNotAborted();
        return repeated(requestId, earlier.get(), fingerprint.hex());
      }
    }
    try {
      return store.writeStream(() -> store(first, source, requestId, fingerprint));
    } catch (DuplicateKeyException raced) {
      // Another stream with this request_id committed while ours ran; ours is rolled back.
      StoredStream earlier = requestId == null ? null : store.read(() -> repository.findStream(requestId)).orElse(null);
      if (earlier == null) {
        throw raced;
      }
      return repeated(requestId, earlier, fingerprint.hex());
    }
  }

  private RegisteredPeople store(
      PersonDto first, PersonSource source, String requestId, Fingerprints.Stream fingerprint) {
    PeopleBatchWriter writer =
        new PeopleBatchWriter(
            batchSize,
            MAX_LISTED_IDS,
            (batch, position) -> repository.insertBatch(batch, requestId, position),
            identity);
    for (PersonDto p = first; p != null; p = next(source)) {
      fingerprint.add(p);
      writer.add(p);
    }
    writer.flush();
    source.checkNotAborted();
    if (requestId != null) {
      repository.insertStream(requestId, new StoredStream(fingerprint.hex(), writer.count(), writer.ids()), identity.now());
    }
    return new RegisteredPeople(writer.count(), writer.ids());
  }

  /** The answer to a stream that repeats requestId, whose people hash to hash. */
  private RegisteredPeople repeated(String requestId, StoredStream earlier, String hash) {
    if (!earlier.requestHash().equals(hash)) {
      throw new RequestIdConflictException(requestId);
    }
    // The stream being repeated may have committed a moment ago: answer once it is durable.
    store.barrier();
    return new RegisteredPeople(earlier.count(), earlier.count() > MAX_LISTED_IDS ? null : earlier.ids());
  }

  private static PersonDto next(PersonSource source) {
    try {
      return source.next();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StreamAbortedException("interrupted");
    }
  }
}
