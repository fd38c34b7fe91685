import { describe, expect, it } from "vitest";
import { AnswerQueue } from "./answer-queue";

describe("the search thread's answer queue", () => {
  it("answers the cheapest first, equals in arrival order", () => {
    const queue = new AnswerQueue<string>(100);
    queue.add("scan", 1_000_000, 0);
    queue.add("narrow word", 500, 1);
    queue.add("browse", 0, 2);
    queue.add("watchers", 0, 3);
    expect([queue.take(4), queue.take(4), queue.take(4), queue.take(4)]).toEqual([
      "browse",
      "watchers",
      "narrow word",
      "scan",
    ]);
    expect(queue.take(4)).toBeUndefined();
    expect(queue.size).toBe(0);
  });

  it("answers a request that waited maxWaitMs next, however costly", () => {
    const queue = new AnswerQueue<string>(100);
    queue.add("scan", 1_000_000, 0);
    queue.add("browse", 0, 50);
    expect(queue.take(99)).toBe("browse");
    queue.add("browse again", 0, 99);
    expect(queue.take(100)).toBe("scan");
    expect(queue.take(100)).toBe("browse again");
  });
});
