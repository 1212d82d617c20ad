package com.acme.person.service;

import com.acme.person.domain.PersonDto;

/** A stream of people to store all-or-nothing, read by one worker thread. */
public interface PersonSource {

  /**
   * The next person, blocking until it arrives; null at the end of the stream.
   *
   * @throws StreamAbortedException when the stream was cancelled or failed
   */
  PersonDto next() throws InterruptedException;

  /**
   * The stream's request_id, taken from its first message; null when it has none. Known once
   * next() has returned for the first time.
   */
  String requestId();

  /** Throws StreamAbortedException if the stream was cancelled; called right before commit. */
  void checkNotAborted();
}
