package com.acme.person.service;

import com.acme.person.config.PersonProperties;
import com.acme.person.domain.PersonDto;
import com.acme.person.domain.PersonNotFoundException;
import com.acme.person.domain.RequestIdConflictException;
import com.acme.person.mapping.PersonMapper;
import com.acme.person.store.PeopleBatchWriter;
import com.acme.person.store.PersonRepository;
import com.acme.person.store.StoredRequest;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/** The registry's rules, independent of gRPC and HTTP: idempotency, all-or-nothing streams. */
@Service
public class PersonRegistry {

  /** RegisterPeopleResponse lists ids only for streams of at most this many people. */
  public static final int MAX_LISTED_IDS = 10_000;

  private final PersonRepository repository;
  private final TransactionTemplate tx;
  private final PersonMapper mapper;
  private final Clock clock;
  private final int batchSize;

  public PersonRegistry(
      PersonRepository repository,
      TransactionTemplate tx,
      PersonMapper mapper,
      Clock clock,
      PersonProperties properties) {
    this.repository = repository;
    this.tx = tx;
    this.mapper = mapper;
    this.clock = clock;
    this.batchSize = properties.registerPeople().batchSize();
  }

  /**
   * Stores a person once per requestId (null: no idempotency). A repeat with the same person
   * returns the first result; with a different person it is a conflict.
   */
  public PersonDto register(String requestId, PersonDto person) {
    String hash = fingerprint(person);
    if (requestId != null) {
      Optional<PersonDto> earlier = earlierResult(requestId, hash);
      if (earlier.isPresent()) {
        return earlier.get();
      }
    }
    PersonDto stored = person.stored(UUID.randomUUID().toString(), PeopleBatchWriter.now(clock));
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
   * Stores every person of the source in one transaction, in batches, so memory stays bounded
   * by the batch size. Rolls back (and rethrows) if the source aborts or anything fails.
   */
  public RegisteredPeople registerAll(PersonSource source) {
    return tx.execute(
        status -> {
          PeopleBatchWriter writer =
              new PeopleBatchWriter(batchSize, MAX_LISTED_IDS, repository::insertBatch, clock);
          try {
            for (PersonDto p = source.next(); p != null; p = source.next()) {
              writer.add(p);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamAbortedException("interrupted");
          }
          writer.flush();
          source.checkNotAborted();
          return new RegisteredPeople(writer.count(), writer.ids());
        });
  }

  private Optional<PersonDto> earlierResult(String requestId, String hash) {
    Optional<StoredRequest> earlier = repository.findByRequestId(requestId);
    if (earlier.isPresent() && !earlier.get().requestHash().equals(hash)) {
      throw new RequestIdConflictException(requestId);
    }
    return earlier.map(StoredRequest::person);
  }

  /** Tells a retry from a different person: SHA-256 of the person's protobuf encoding. */
  private String fingerprint(PersonDto person) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(mapper.toProto(person).toByteArray());
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
