package com.acme.person.service;

import com.acme.person.config.PersonProperties;
import com.acme.person.domain.PersonDto;
import com.acme.person.domain.PersonFilter;
import com.acme.person.domain.PersonNotFoundException;
import com.acme.person.domain.RequestIdConflictException;
import com.acme.person.store.IdentityAssigner;
import com.acme.person.store.PageCursor;
import com.acme.person.store.PeopleBatchWriter;
import com.acme.person.store.PersonRepository;
import com.acme.person.store.StoredRequest;
import com.acme.person.store.StoredStream;
import java.util.List;
import java.util.Optional;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The registry's rules, independent of gRPC and HTTP: every read and write of people goes
 * through here (the gRPC and REST layers never touch the store), with idempotency and
 * all-or-nothing streams.
 */
@Service
public class PersonRegistry {

  /** RegisterPeopleResponse lists ids only for streams of at most this many people. */
  public static final int MAX_LISTED_IDS = 10_000;

  private final PersonRepository repository;
  private final TransactionTemplate tx;
  private final IdentityAssigner identity;
  private final int batchSize;

  public PersonRegistry(
      PersonRepository repository, TransactionTemplate tx, IdentityAssigner identity, PersonProperties properties) {
    this.repository = repository;
    this.tx = tx;
    this.identity = identity;
    this.batchSize = properties.registerPeople().batchSize();
  }

  /**
   * Stores a person once per requestId (null: no idempotency). A repeat with the same person
   * returns the first result; with a different person it is a conflict.
   */
  public PersonDto register(String requestId, PersonDto person) {
    String hash = Fingerprints.of(person);
    if (requestId != null) {
      Optional<PersonDto> earlier = earlierResult(requestId, hash);
      if (earlier.isPresent()) {
        return earlier.get();
      }
    }
    PersonDto stored = identity.assign(person);
    try {
      tx.executeWithoutResult(s -> repository.insert(stored, requestId, hash));
      return stored;
    } catch (DuplicateKeyException raced) {
      // A concurrent request with the same request_id committed first.
      return earlierResult(requestId, hash).orElseThrow(() -> raced);
    }
  }

  public PersonDto get(String id) {
    return repository.findById(id).orElseThrow(() -> new PersonNotFoundException(id));
  }

  /**
   * Up to max people of the filter's page, in created_at order, after the person given (null:
   * from the page's start). Read by keyset, so a streamed page costs one query per chunk.
   */
  public List<PersonDto> listAfter(PersonFilter filter, PersonDto after, int max) {
    return repository.findPage(filter, after == null ? null : new PageCursor(after.createdAt(), after.id()), max);
  }

  /**
   * Stores every person of the source in one transaction, in batches, so memory stays bounded
   * by the batch size. Rolls back (and rethrows) if the source aborts or anything fails.
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
    if (requestId != null) {
      Optional<StoredStream> earlier = repository.findStream(requestId);
      if (earlier.isPresent()) {
        for (PersonDto p = first; p != null; p = next(source)) {
          fingerprint.add(p);
        }
        source.checkNotAborted();
        return repeated(requestId, earlier.get(), fingerprint.hex());
      }
    }
    try {
      return tx.execute(status -> store(first, source, requestId, fingerprint));
    } catch (DuplicateKeyException raced) {
      // Another stream with this request_id committed while ours ran; ours is rolled back.
      StoredStream earlier = requestId == null ? null : repository.findStream(requestId).orElse(null);
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
      repository.insertStream(requestId, new StoredStream(fingerprint.hex(), writer.count()), identity.now());
    }
    return new RegisteredPeople(writer.count(), writer.ids());
  }

  /** The answer to a stream that repeats requestId, whose people hash to hash. */
  private RegisteredPeople repeated(String requestId, StoredStream earlier, String hash) {
    if (!earlier.requestHash().equals(hash)) {
      throw new RequestIdConflictException(requestId);
    }
    return new RegisteredPeople(
        earlier.count(), earlier.count() > MAX_LISTED_IDS ? null : repository.streamIds(requestId));
  }

  private static PersonDto next(PersonSource source) {
    try {
      return source.next();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StreamAbortedException("interrupted");
    }
  }

  private Optional<PersonDto> earlierResult(String requestId, String hash) {
    Optional<StoredRequest> earlier = repository.findByRequestId(requestId);
    if (earlier.isPresent() && !earlier.get().requestHash().equals(hash)) {
      throw new RequestIdConflictException(requestId);
    }
    return earlier.map(StoredRequest::person);
  }
}
