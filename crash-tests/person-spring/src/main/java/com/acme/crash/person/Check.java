package com.acme.crash.person;

import com.acme.person.v1.Person;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The oracle: what the ledger says the service promised, against what it stored. An
 * acknowledged person is stored exactly once, with the id it was answered with; a failed call
 * at most once; an answered stream whole with its ids in order, a stream never half-closed not
 * at all, a half-closed one unanswered whole or not at all; and nothing else under the run's
 * prefix.
 */
final class Check {
  private Check() {}

  static void stored(Ledger ledger, Map<String, List<Person>> stored, Verdict verdict) {
    Set<String> sent = new HashSet<>();
    for (Ledger.Unary u : ledger.unary) {
      String name = u.person().getName();
      sent.add(name);
      List<Person> found = stored.getOrDefault(name, List.of());
      if (u.acknowledged()) {
        if (found.isEmpty()) {
          verdict.fail("acknowledged RegisterPerson lost", name + " " + u.id());
        } else if (found.size() > 1) {
          verdict.fail("acknowledged RegisterPerson stored more than once", name + " x" + found.size());
        } else if (!found.get(0).getId().equals(u.id())) {
          verdict.fail("acknowledged RegisterPerson stored under another id", name + " " + u.id() + " != " + found.get(0).getId());
        } else if (!same(found.get(0), u.person())) {
          verdict.fail("acknowledged RegisterPerson stored differently", name);
        }
      } else if (found.size() > 1) {
        verdict.fail("failed RegisterPerson stored more than once", name + " x" + found.size());
      }
    }
    for (Ledger.Stream s : ledger.streams) {
      int present = 0;
      for (int j = 0; j < s.people().size(); j++) {
        Person p = s.people().get(j);
        sent.add(p.getName());
        List<Person> found = stored.getOrDefault(p.getName(), List.of());
        if (found.size() > 1) {
          verdict.fail("streamed person stored more than once", p.getName() + " x" + found.size());
        }
        if (!found.isEmpty()) {
          present++;
          if (s.state() == Ledger.StreamState.ANSWERED && !found.get(0).getId().equals(s.ids().get(j))) {
            verdict.fail("answered stream stored under other ids", p.getName());
          }
        }
      }
      int size = s.people().size();
      switch (s.state()) {
        case ANSWERED -> {
          if (present != size) {
            verdict.fail("answered RegisterPeople stream not stored whole", s.requestId() + ": " + present + " of " + size);
          }
        }
        case OPEN -> {
          if (present != 0) {
            verdict.fail("RegisterPeople stream never half-closed but stored", s.requestId() + ": " + present + " of " + size);
          }
        }
        case HALF_CLOSED -> {
          if (present != 0 && present != size) {
            verdict.fail("unanswered RegisterPeople stream stored in part", s.requestId() + ": " + present + " of " + size);
          }
        }
      }
    }
    for (String name : stored.keySet()) {
      if (!sent.contains(name)) {
        verdict.fail("stored person nobody sent", name);
      }
    }
  }

  /** The person as sent and as stored agree on every field the client chose. */
  static boolean same(Person stored, Person sent) {
    return stored.toBuilder().clearId().clearCreatedAt().build().equals(sent);
  }

  /**
   * After every call was replayed: each person sent is stored exactly once, each stream whole.
   */
  static void complete(Ledger ledger, Map<String, List<Person>> stored, Verdict verdict) {
    for (Ledger.Unary u : ledger.unary) {
      int n = stored.getOrDefault(u.person().getName(), List.of()).size();
      if (n != 1) {
        verdict.fail("after the replay, a RegisterPerson is not stored exactly once", u.person().getName() + " x" + n);
      }
    }
    for (Ledger.Stream s : ledger.streams) {
      for (Person p : s.people()) {
        int n = stored.getOrDefault(p.getName(), List.of()).size();
        if (n != 1) {
          verdict.fail("after the replay, a streamed person is not stored exactly once", p.getName() + " x" + n);
        }
      }
    }
  }
}
