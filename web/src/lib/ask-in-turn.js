// @ts-check
// Questions to the worker one at a time, the latest waiting next: a view that changes faster than the worker
// answers asks only for its last state (the flame chart's boxes of exact calls, its collapsed lanes' strips).

/**
 * Sends the question waiting in `queue.next` unless one is out, then each one put there meanwhile, one at a
 * time; a question put there while another waits replaces it. `send(job)` asks and handles the answer; the
 * next is sent when its promise settles, answered or not.
 * @template J
 * @param {{busy: boolean, next: J | null}} queue
 * @param {(job: J) => Promise<unknown>} send
 */
export function askInTurn(queue, send) {
  if (queue.busy) return;
  const ask = () => {
    const job = queue.next;
    queue.next = null;
    queue.busy = !!job;
    if (job) send(job).then(ask, ask);
  };
  ask();
}
