// A request stream the executor feeds by hand: push() sends a message, end() half-closes,
// and a stream that is never ended stays open (for deadlines and cancellation). Connect
// reads request streams as AsyncIterables; this is the smallest one that lets a feature
// decide when each message goes out.
export class RequestQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  push(item: T): void {
    this.items.push(item);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      while (this.items.length > 0) yield this.items.shift()!;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
