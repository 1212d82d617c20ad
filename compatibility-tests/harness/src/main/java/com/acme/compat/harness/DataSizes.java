package com.acme.compat.harness;

import java.util.Locale;

/** Sizes in docker's notation — 512m, 1g, 64k — as containers.env writes them. */
final class DataSizes {
  private DataSizes() {}

  static long bytes(String size) {
    String s = size.strip().toLowerCase(Locale.ROOT);
    long unit = switch (s.charAt(s.length() - 1)) {
      case 'k' -> 1L << 10;
      case 'm' -> 1L << 20;
      case 'g' -> 1L << 30;
      default -> 1;
    };
    String digits = unit == 1 ? s : s.substring(0, s.length() - 1);
    try {
      return Long.parseLong(digits) * unit;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a size in docker's notation (512m, 1g): " + size, e);
    }
  }
}
