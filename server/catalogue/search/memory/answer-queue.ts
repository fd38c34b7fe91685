/**
 * The search thread's waiting requests (search-worker.ts), answered cheapest first: most answers
 * take under a millisecond (browse pages, narrow words, watcher counts) and a few 10-30 ms (a scan
 * of a broad filter), and in arrival order each cheap one that arrived behind a scan waited for it.
 * A request that has waited `maxWaitMs` goes next whatever its cost, so none is starved.
 */
export class AnswerQueue<T> {
  private readonly waiting: { item: T; cost: number; arrivedAt: number }[] = [];

  constructor(private readonly maxWaitMs: number) {}

  get size() {
    return this.waiting.length;
  }

  add(item: T, cost: number, now: number) {
    this.waiting.push({ item, cost, arrivedAt: now });
  }

  /** The oldest request if it waited `maxWaitMs`, else the cheapest (the earliest of equals). */
  take(now: number): T | undefined {
    if (!this.waiting.length) return undefined;
    let next = 0;
    if (now - this.waiting[0].arrivedAt < this.maxWaitMs)
      for (let i = 1; i < this.waiting.length; i++)
        if (this.waiting[i].cost < this.waiting[next].cost) next = i;
    return this.waiting.splice(next, 1)[0].item;
  }
}
