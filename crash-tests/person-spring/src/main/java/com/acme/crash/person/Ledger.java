package com.acme.crash.person;

import com.acme.person.v1.Person;
import io.grpc.Status;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What the load sent and what the service answered: the oracle of the read-back. A unary call
 * answered OK, or a stream answered OK, was acknowledged, and must be stored exactly as
 * answered whatever happened after. A call that failed may or may not have been stored.
 */
final class Ledger {

  /** One RegisterPerson: acknowledged when id is set, otherwise it failed with code. */
  record Unary(String requestId, Person person, String id, Status.Code code) {
    boolean acknowledged() {
      return id != null;
    }
  }

  /** How far a RegisterPeople stream got. */
  enum StreamState {
    /** Never half-closed: the service may store none of it. */
    OPEN,
    /** Half-closed, then no answer: stored whole or not at all. */
    HALF_CLOSED,
    /** Answered OK with these ids: stored whole. */
    ANSWERED
  }

  record Stream(String requestId, List<Person> people, StreamState state, List<String> ids, Status.Code code) {}

  final Queue<Unary> unary = new ConcurrentLinkedQueue<>();
  final Queue<Stream> streams = new ConcurrentLinkedQueue<>();

  /** A failure as one short line: its status code and description, no stack. */
  static String describe(Throwable t) {
    Status status = Status.fromThrowable(t);
    return status.getCode() + (status.getDescription() == null ? "" : " " + status.getDescription());
  }

  long acknowledgedUnary() {
    return unary.stream().filter(Unary::acknowledged).count();
  }

  long streams(StreamState state) {
    return streams.stream().filter(s -> s.state() == state).count();
  }
}
