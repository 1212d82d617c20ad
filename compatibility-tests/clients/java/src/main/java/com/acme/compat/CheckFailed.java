package com.acme.compat;

/** A feature's check did not hold; the message is the report's detail (what differed). */
final class CheckFailed extends RuntimeException {
  CheckFailed(String detail) {
    super(detail, null, false, false);
  }
}
