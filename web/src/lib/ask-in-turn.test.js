// askInTurn: one question out at a time, the latest waiting one next, the next sent whether or not the last
// was answered.
import { describe, expect, it } from 'vitest';
import { askInTurn } from './ask-in-turn.js';

describe('askInTurn', () => {
  it('sends one at a time; of the questions put meanwhile only the latest', async () => {
    /** @type {{busy: boolean, next: number | null}} */
    const queue = { busy: false, next: null };
    /** @type {number[]} */
    const sent = [];
    /** @type {((v?: unknown) => void)[]} */
    const settle = [];
    const send = (/** @type {number} */ q) => {
      sent.push(q);
      return new Promise((resolve, reject) => settle.push(q === 3 ? reject : resolve));
    };
    const put = (/** @type {number} */ q) => {
      queue.next = q;
      askInTurn(queue, send);
    };
    put(1);
    put(2);
    put(3);
    expect(sent).toEqual([1]);
    settle[0]();
    await Promise.resolve();
    await Promise.resolve();
    expect(sent).toEqual([1, 3]); // (2 was replaced while it waited)
    put(4);
    settle[1](new Error('no answer')); // (a question not answered: the next is sent all the same)
    await Promise.resolve();
    await Promise.resolve();
    expect(sent).toEqual([1, 3, 4]);
    settle[2]();
    await Promise.resolve();
    await Promise.resolve();
    expect(queue.busy).toBe(false);
    put(5);
    expect(sent).toEqual([1, 3, 4, 5]);
  });
});
