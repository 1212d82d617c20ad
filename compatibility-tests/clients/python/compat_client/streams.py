"""Request iterators for grpcio's streaming calls. grpcio pulls requests from an iterator on
its own thread, so a queue-fed one lets a feature decide when each message goes out: send
one, read its answer, send the next (bidi), or send and then never half-close (deadline)."""

import queue
import threading

_END = object()


class RequestQueue:
    """An iterator over the messages `send` puts in; `close` half-closes the stream (the
    iterator ends). `sent` counts the messages grpcio has taken so far."""

    def __init__(self):
        self._queue = queue.Queue()
        self._lock = threading.Lock()
        self._taken = 0
        self.all_taken = threading.Event()
        self._expected = None

    def send(self, message):
        self._queue.put(message)

    def close(self):
        self._queue.put(_END)

    def expect(self, count):
        """all_taken is set once grpcio has taken `count` messages."""
        self._expected = count

    @property
    def taken(self):
        with self._lock:
            return self._taken

    def __iter__(self):
        return self

    def __next__(self):
        item = self._queue.get()
        if item is _END:
            raise StopIteration
        with self._lock:
            self._taken += 1
            if self._expected is not None and self._taken >= self._expected:
                self.all_taken.set()
        return item
