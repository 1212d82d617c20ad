package com.acme.person.store;

import java.util.Locale;

/**
 * The trigrams of a name, for the embedded store's name index: every run of three code points
 * of the lower-cased name, each packed into a long (21 bits a code point). A name contains a
 * text only if it has every trigram of the text, so the people that have all of them are the
 * candidates, checked with {@link #contains}. Texts shorter than three code points have none.
 */
final class Trigrams {
  private Trigrams() {}

  /** How names and the searched text are compared: lower case, whatever the JVM's locale. */
  static String lower(String text) {
    return text.toLowerCase(Locale.ROOT);
  }

  /** name contains text (text already lower-cased), as ListPeople's name_contains means it. */
  static boolean contains(String name, String lowerText) {
    return lower(name).contains(lowerText);
  }

  /** The distinct trigrams of a lower-cased text, in no particular order. */
  static long[] of(String lowerText) {
    int[] cp = lowerText.codePoints().toArray();
    if (cp.length < 3) {
      return new long[0];
    }
    long[] grams = new long[cp.length - 2];
    int n = 0;
    outer:
    for (int i = 0; i + 2 < cp.length; i++) {
      long gram = ((long) cp[i] << 42) | ((long) cp[i + 1] << 21) | cp[i + 2];
      for (int j = 0; j < n; j++) {
        if (grams[j] == gram) {
          continue outer;
        }
      }
      grams[n++] = gram;
    }
    return java.util.Arrays.copyOf(grams, n);
  }
}
