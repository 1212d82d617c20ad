package com.acme.person.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The trigram index's candidates are every person whose lower-cased name contains the text
 * (and, for these names, nothing else), in seq order from where a page continues.
 */
class NameIndexTest {

  private static final String[] PARTS = {"ada", "lovelace", "grace", "hopper", "Åsa", "Ürün", "li", "wei", "x"};

  @Test
  void candidatesAreExactlyTheMatchesInSeqOrder() {
    Random random = new Random(42);
    NameIndex index = new NameIndex();
    List<String> names = new ArrayList<>();
    names.add(null); // seqs start at 1
    for (int i = 0; i < 5_000; i++) {
      if (random.nextInt(20) == 0) {
        names.add(null); // a gap in seq: a rolled-back person leaves one
      }
      String name = PARTS[random.nextInt(PARTS.length)] + " " + PARTS[random.nextInt(PARTS.length)]
          + (random.nextInt(10) == 0 ? " " + random.nextInt(1000) : "");
      names.add(name);
      index.add(names.size() - 1, name);
    }
    for (String text : new String[] {"ada", "ACE HOP", "åsa ü", "ce l", "i we", "12", "zzz", "lovelace lovelace"}) {
      String lower = Trigrams.lower(text);
      if (Trigrams.of(lower).length == 0) {
        continue;
      }
      for (long after : new long[] {0, 1_234, 4_999}) {
        List<Long> expected = new ArrayList<>();
        for (int seq = (int) after + 1; seq < names.size(); seq++) {
          if (names.get(seq) != null && Trigrams.contains(names.get(seq), lower)) {
            expected.add((long) seq);
          }
        }
        List<Long> candidates = new ArrayList<>();
        NameIndex.Candidates c = index.candidates(lower, after);
        for (long seq; (seq = c.next()) != -1; ) {
          candidates.add(seq);
        }
        // Every match is a candidate; for these names every candidate is a match.
        assertThat(candidates).as("%s after %d", text, after).containsAll(expected);
        assertThat(candidates).isSorted();
        assertThat(candidates).allMatch(seq -> seq > after);
        if (!text.equals("lovelace lovelace") && !text.equals("i we")) {
          assertThat(candidates).isEqualTo(expected);
        }
      }
    }
  }

  @Test
  void seqsMustIncrease() {
    NameIndex index = new NameIndex();
    index.add(5, "abc");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> index.add(5, "abd"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
